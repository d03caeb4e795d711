import { promises as dns, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import { EgressError } from '@flowgate/flow-engine';
import type { AddressPolicy } from './address-policy';

export interface GuardedRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface GuardedResponse {
  status: number;
  /** Lowercased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Decoded (gzip/deflate/br undone), at most `maxResponseBytes`. */
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface GuardedFetchOptions {
  policy: AddressPolicy;
  /** Whole exchange (DNS, connect, every redirect, body). */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Replaceable in tests; default `dns.lookup` with `all: true`. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

export type GuardedFetch = (
  request: GuardedRequest,
  signal: AbortSignal,
  overrides?: { maxResponseBytes?: number; timeoutMs?: number },
) => Promise<GuardedResponse>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Set by the transport, never by a flow. */
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection']);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const USER_AGENT = 'Flowgate (+https://github.com/flowgate)';

const defaultResolve = (hostname: string): Promise<LookupAddress[]> => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * An outbound fetch for flows that cannot be pointed at the inside of the network: every
 * hop's host is resolved, each address is checked against the policy, and the socket is
 * opened to the address that was checked (a `lookup` that returns only it), so a second,
 * different DNS answer can never be used. Redirects are followed by hand and re-checked.
 */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const maxRedirects = options.maxRedirects ?? 5;
  const resolve = options.resolve ?? defaultResolve;

  return async (request, signal, overrides = {}) => {
    const timeoutMs = overrides.timeoutMs ?? options.timeoutMs;
    const maxBytes = overrides.maxResponseBytes ?? options.maxResponseBytes;
    const deadline = AbortSignal.timeout(timeoutMs);
    const abort = AbortSignal.any([signal, deadline]);
    const abortError = () =>
      new EgressError('timeout', deadline.aborted ? `no complete response within ${timeoutMs} ms` : 'the request was cancelled');

    let url = parseUrl(request.url);
    let method = request.method.toUpperCase();
    let body = request.body;
    let headers = outboundHeaders(request.headers ?? {});

    for (let redirects = 0; ; redirects++) {
      if (abort.aborted) throw abortError();
      const address = await vet(url, options.policy, resolve, abort, abortError);
      const response = await send(url, address, method, headers, body, abort, abortError);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location) {
        response.resume();
        if (redirects >= maxRedirects) throw new EgressError('connection_failed', `more than ${maxRedirects} redirects`);
        const next = parseUrl(location, url);
        const status = response.statusCode;
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
          headers = withoutHeaders(headers, ['content-type']);
        }
        if (next.origin !== url.origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS);
        url = next;
        continue;
      }
      const raw = await readCapped(response, maxBytes, abort, abortError);
      return {
        status: response.statusCode ?? 0,
        headers: decodedHeaders(response),
        body: decode(raw, response.headers['content-encoding'], maxBytes),
        url: url.toString(),
      };
    }
  };
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new EgressError('connection_failed', `"${text}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('egress_blocked', `only http and https URLs are allowed (got ${url.protocol.replace(/:$/, '')})`);
  }
  return url;
}

interface VettedAddress {
  address: string;
  family: 4 | 6;
}

async function vet(
  url: URL,
  policy: AddressPolicy,
  resolve: (hostname: string) => Promise<LookupAddress[]>,
  abort: AbortSignal,
  abortError: () => EgressError,
): Promise<VettedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = net.isIP(host);
  let candidates: LookupAddress[];
  if (literal) candidates = [{ address: host, family: literal }];
  else {
    try {
      candidates = await raceAbort(resolve(host), abort, abortError);
    } catch (error) {
      if (error instanceof EgressError) throw error;
      throw new EgressError('connection_failed', `could not resolve ${host} (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
  }
  const refusals: string[] = [];
  for (const candidate of candidates) {
    const reason = policy.check(candidate.address);
    if (reason === null) return { address: candidate.address, family: candidate.family === 6 ? 6 : 4 };
    refusals.push(`${candidate.address} is ${reason}`);
  }
  if (refusals.length === 0) throw new EgressError('connection_failed', `${host} has no address`);
  // A literal address is the flow's own: say why. A name's addresses are the network's: naming
  // them would let a project map internal DNS through its error messages.
  if (literal) throw new EgressError('egress_blocked', `${host} is not reachable from flows: ${refusals.join(', ')}`);
  throw new EgressError('egress_blocked', `${host} is not reachable from flows (it resolves only to addresses flows may not reach)`);
}

function send(
  url: URL,
  target: VettedAddress,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  abort: AbortSignal,
  abortError: () => EgressError,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    const requestHeaders = payload ? { ...headers, 'content-length': String(payload.length) } : headers;
    let req: http.ClientRequest;
    try {
      req = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: requestHeaders,
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        agent: false,
        // The only address this socket may reach is the one that passed the policy.
        lookup: (_hostname, lookupOptions, callback) => {
          if (lookupOptions.all) callback(null, [target]);
          else callback(null, target.address, target.family);
        },
      });
    } catch (error) {
      reject(new EgressError('connection_failed', `invalid request: ${(error as Error).message}`));
      return;
    }
    const onAbort = () => req.destroy(abortError());
    if (abort.aborted) onAbort();
    else abort.addEventListener('abort', onAbort, { once: true });
    req.once('response', (response) => {
      response.once('close', () => abort.removeEventListener('abort', onAbort));
      resolve(response);
    });
    req.once('error', (error) => {
      abort.removeEventListener('abort', onAbort);
      reject(toEgressError(error, abort, abortError));
    });
    req.end(payload);
  });
}

function readCapped(response: IncomingMessage, maxBytes: number, abort: AbortSignal, abortError: () => EgressError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new EgressError('response_too_large', `the response is larger than ${maxBytes} bytes`);
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    response.once('end', () => resolve(Buffer.concat(chunks, size)));
    response.once('error', (error) => reject(toEgressError(error, abort, abortError)));
    response.once('close', () => {
      if (!response.complete) reject(abort.aborted ? abortError() : new EgressError('connection_failed', 'the connection closed mid-response'));
    });
  });
}

function decode(raw: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const options = { maxOutputLength: maxBytes };
  try {
    switch ((encoding ?? '').trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return zlib.gunzipSync(raw, options);
      case 'deflate':
        return zlib.inflateSync(raw, options);
      case 'br':
        return zlib.brotliDecompressSync(raw, options);
      default:
        return raw;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new EgressError('response_too_large', `the decompressed response is larger than ${maxBytes} bytes`);
    }
    throw new EgressError('connection_failed', `could not decode the ${encoding} response`);
  }
}

function decodedHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const encoded = ['gzip', 'x-gzip', 'deflate', 'br'].includes((response.headers['content-encoding'] ?? '').trim().toLowerCase());
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    if (encoded && (name === 'content-encoding' || name === 'content-length')) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function outboundHeaders(given: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const lower = name.toLowerCase();
    if (FORBIDDEN_HEADERS.has(lower)) continue;
    headers[lower] = value;
  }
  headers['user-agent'] ??= USER_AGENT;
  return headers;
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}

function toEgressError(error: unknown, abort: AbortSignal, abortError: () => EgressError): EgressError {
  if (error instanceof EgressError) return error;
  if (abort.aborted) return abortError();
  const err = error as NodeJS.ErrnoException;
  return new EgressError('connection_failed', `connection failed (${err.code ?? err.message})`);
}

function raceAbort<T>(promise: Promise<T>, abort: AbortSignal, abortError: () => EgressError): Promise<T> {
  if (abort.aborted) return Promise.reject(abortError());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError());
    abort.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        abort.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        abort.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
