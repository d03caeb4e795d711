import { z } from 'zod';
import { jsonTooDeep } from '@flowgate/contracts';
import { EgressError, type OutboundRequest, type OutboundResponse } from '../../ports';
import { BlockFailure, RunInterrupted } from '../../runtime/run-errors';
import type { FlowRun } from '../../runtime/flow-run';
import { RESERVED_ROOTS, referenceNameSchema } from '../../schema/names';
import type { Resolver } from '../../template/template-resolver';
import { defineBlock, textSource, valueSource, type ConfigKit, type KitMode } from '../block-definition';
import { retryAfterMs, retryField, withRetries, type AttemptVerdict } from '../common/retry';

export const OUTBOUND_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const MAX_OUTBOUND_HEADERS = 10;
const WITHOUT_BODY = new Set(['GET', 'HEAD']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    name: referenceNameSchema
      .refine((name) => !RESERVED_ROOTS.has(name), { error: 'may not be a reference root (params, local, result, body, request, …)' })
      .meta({ title: 'Block Name' }),
    url: kit.template(textSource('Request URL')),
    method: z.enum(OUTBOUND_METHODS).default('GET').meta({ title: 'Method' }),
    headers: z
      .array(
        z.object({
          key: z.string().regex(HEADER_NAME, { error: 'must be a valid header name' }).meta({ title: 'Name' }),
          value: kit.template(textSource('Value')),
        }),
      )
      .max(MAX_OUTBOUND_HEADERS)
      .default([])
      .refine((headers) => new Set(headers.map((header) => header.key.toLowerCase())).size === headers.length, {
        error: 'must not name the same header twice',
        params: { code: 'duplicate_header' },
      })
      .meta({ title: 'HTTP Headers' }),
    body: kit
      .template(valueSource('Request Body'))
      .optional()
      .meta({ shownWhen: { method: OUTBOUND_METHODS.filter((method) => !WITHOUT_BODY.has(method)) } }),
    fail_on_status: z.boolean().default(false).meta({ title: 'Fail on 4xx/5xx' }),
    retry: retryField(),
  });
type HttpRequestConfig = z.output<ReturnType<typeof config<'compiled'>>>;

/** What `{NAME…}` reads. `status` is null and `error` names the reason when no response came back. */
export interface HttpRequestResult {
  status: number | null;
  headers: Record<string, string>;
  body: unknown;
  error: string | null;
}

/** An attempt's answer, and when none came back, why (the egress guard's words, for the trace and `{NAME.error.message}`). */
interface Sent {
  result: HttpRequestResult;
  reason: string | null;
}

const failed = (error: string, reason: string): Sent => ({ result: { status: null, headers: {}, body: null, error }, reason });

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** JSON is parsed; other bodies, and JSON too deep to handle safely (MAX_JSON_DEPTH), stay text. */
function readBody(response: OutboundResponse): unknown {
  if (!JSON_CONTENT_TYPE.test(response.headers['content-type'] ?? '') || jsonTooDeep(response.body)) return response.body;
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    return response.body;
  }
}

/**
 * An object or list body is sent as JSON; a text body is sent as JSON when it parses as JSON
 * after its references are filled in, else as plain text. A Content-Type set in the headers wins.
 */
function serialiseBody(value: unknown): { text: string; contentType: string } {
  if (value !== null && typeof value === 'object') return { text: JSON.stringify(value), contentType: 'application/json' };
  const text = value === null || value === undefined ? '' : String(value);
  try {
    JSON.parse(text);
    return { text, contentType: 'application/json' };
  } catch {
    return { text, contentType: 'text/plain; charset=utf-8' };
  }
}

const isHttpUrl = (url: string): boolean => {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
};

export const httpRequestBlock = defineBlock<HttpRequestConfig>({
  type: 'http_request',
  label: 'Send External Request',
  category: 'integrations',
  description: 'Calls an external HTTP API; read the answer as {NAME.status}, {NAME.body}, {NAME.body.KEY}, {NAME.error}.',
  config,
  flow: 'next',
  async: true,
  canFail: true,
  outputs: ({ name }) => [{ name, fields: ['status', 'headers', 'body', 'error'], readableByName: true }],
  check: ({ url, method, body }, diagnostics) => {
    if (url.kind === 'literal' && !isHttpUrl(String(url.value))) diagnostics.error('invalid_url', 'url', 'Request URL must be an absolute http:// or https:// URL.');
    if (body !== undefined && WITHOUT_BODY.has(method)) diagnostics.warning('body_ignored', 'body', `a ${method} request has no body; the Request Body is not sent.`);
  },
  prepare: (config, context) => {
    const slot = context.variable(config.name);
    const url = context.text(config.url);
    const headers = config.headers.map(({ key, value }) => [key, context.text(value)] as const);
    const hasContentType = config.headers.some(({ key }) => key.toLowerCase() === 'content-type');
    const body: Resolver | null = config.body === undefined || WITHOUT_BODY.has(config.method) ? null : context.value(config.body);
    const buildRequest = (run: FlowRun): OutboundRequest | null => {
      const target = url(run);
      if (!isHttpUrl(target)) return null;
      const request: OutboundRequest = { method: config.method, url: target, headers: {} };
      for (const [key, value] of headers) request.headers[key] = value(run);
      if (body !== null) {
        const { text, contentType } = serialiseBody(body(run));
        request.body = text;
        if (!hasContentType) request.headers['content-type'] = contentType;
      }
      return request;
    };
    const traced = { id: context.nodeId, type: 'http_request', label: context.label };
    return async (run) => {
      const request = buildRequest(run);
      const { result, reason } = await withRetries(run, config.retry, traced, () => send(run, request), judgeAnswer);
      if (result.status === null) {
        const failure = { message: `the request failed: ${reason}`, code: result.error ?? 'connection_failed' };
        // With an error path a failure is the block's failure; without, the flow goes on and can tell (`{NAME.error}`).
        if (context.hasErrorPath) throw new BlockFailure(failure.message, failure.code);
        run.failedAndWentOn(failure);
      }
      if (config.fail_on_status && result.status !== null && result.status >= 400) {
        throw new BlockFailure(`the answer's status was ${result.status}`, 'http_status', result.status);
      }
      run.keep(slot, result);
    };
  },
});

/** An answer judged for a retry: a network failure, a 5xx or a 429 (with its `Retry-After`). */
function judgeAnswer(settled: { ok: true; value: Sent } | { ok: false; error: unknown }): AttemptVerdict {
  if (!settled.ok) return { cause: null, outcome: 'failed' };
  const { status, error, headers } = settled.value.result;
  if (status === null) return { cause: error === 'timeout' || error === 'connection_failed' ? 'network' : null, outcome: error ?? 'failed' };
  if (status === 429) return { cause: '429', outcome: 'http_429', retryAfterMs: retryAfterMs(headers['retry-after'], Date.now()) };
  if (status >= 500) return { cause: '5xx', outcome: `http_${status}`, retryAfterMs: retryAfterMs(headers['retry-after'], Date.now()) };
  return { cause: null, outcome: `http_${status}` };
}

async function send(run: FlowRun, request: OutboundRequest | null): Promise<Sent> {
  if (request === null) return failed('invalid_url', 'the Request URL is not an absolute http:// or https:// URL');
  const http = run.ports.http;
  if (!http) return failed('egress_blocked', 'outbound requests are not available here');
  try {
    const response = await http.request(request, run.signal);
    // Like a body over the egress limit: the flow goes on and can tell (`{NAME.error}`).
    if (response.body.length > run.limits.maxValueChars) return failed('response_too_large', `the response is longer than ${run.limits.maxValueChars} characters`);
    return { result: { status: response.status, headers: response.headers, body: readBody(response), error: null }, reason: null };
  } catch (error) {
    // At the deadline the whole flow stops; the executor reports it.
    if (run.signal.aborted) throw run.signal.reason as RunInterrupted;
    const code = error instanceof EgressError ? error.code : 'connection_failed';
    // The guard's words for a refusal name the addresses the host resolved to: an internal name's address is not the flow's to learn.
    const reason = code === 'egress_blocked' ? 'flows may not reach this address' : error instanceof Error ? error.message : String(error);
    return failed(code, reason);
  }
}
