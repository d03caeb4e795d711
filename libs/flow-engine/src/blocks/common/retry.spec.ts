import { EgressError, IntegrationError, type HttpPort, type OutboundResponse } from '../../ports';
import type { FlowTracer, TracedAttempt } from '../../runtime/flow-tracer';
import { graphFlow, request, respondBody, runFlow } from '../../testing/flow-fixtures';
import { retryAfterMs } from './retry';

/** A fake clock for the waits between attempts: records each and returns at once. */
function fakeSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

/** Answers in turn with the given responses (an Error is thrown). */
function scriptedHttp(script: Array<OutboundResponse | Error>): HttpPort & { calls: number } {
  const port = {
    calls: 0,
    request: async () => {
      const next = script[Math.min(port.calls++, script.length - 1)];
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return port;
}

const status = (code: number, headers: Record<string, string> = {}): OutboundResponse => ({ status: code, headers: { 'content-type': 'application/json', ...headers }, body: '{"ok":true}' });
const callWith = (retry: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) =>
  graphFlow(
    [
      { id: 'b', type: 'http_request', config: { name: 'api', url: 'https://api.example.com', ...(retry ? { retry } : {}), ...extra } as never },
      { id: 'r', type: 'respond', config: { body: { status: '{api.status}', error: '{api.error}' } } },
    ],
    ['start>b', 'b>r'],
  );

function attemptTracer() {
  const attempts: TracedAttempt[] = [];
  const tracer: FlowTracer = { blockStarted: () => undefined, blockEnded: () => undefined, blockFailed: () => undefined, attempt: (_block, attempt) => void attempts.push(attempt) };
  return { attempts, tracer };
}

describe('retries', () => {
  it('retries a 5xx with exponential backoff until an answer succeeds, tracing every attempt', async () => {
    const http = scriptedHttp([status(503), status(502), status(200)]);
    const { waits, sleep } = fakeSleep();
    const { attempts, tracer } = attemptTracer();
    const body = await respondBody(callWith({ attempts: 3, delay_ms: 100 }), { ports: { http, sleep }, options: { tracer } });
    expect(body).toEqual({ status: 200, error: null });
    expect(http.calls).toBe(3);
    expect(waits).toEqual([100, 200]);
    expect(attempts).toEqual([
      { attempt: 1, outcome: 'http_503', wait_ms: 100 },
      { attempt: 2, outcome: 'http_502', wait_ms: 200 },
      { attempt: 3, outcome: 'http_200', wait_ms: 0 },
    ]);
  });

  it('waits the same delay each time with fixed backoff, and gives the last answer when attempts run out', async () => {
    const http = scriptedHttp([status(500)]);
    const { waits, sleep } = fakeSleep();
    await expect(respondBody(callWith({ attempts: 2, delay_ms: 50, backoff: 'fixed' }), { ports: { http, sleep } })).resolves.toEqual({ status: 500, error: null });
    expect(http.calls).toBe(3);
    expect(waits).toEqual([50, 50]);
  });

  it('honours Retry-After up to 10 s on a 429', async () => {
    const http = scriptedHttp([status(429, { 'retry-after': '3' }), status(429, { 'retry-after': '120' }), status(200)]);
    const { waits, sleep } = fakeSleep();
    await respondBody(callWith({ attempts: 2, delay_ms: 100 }), { ports: { http, sleep } });
    expect(waits).toEqual([3_000, 10_000]);
  });

  it('retries network failures, and only the causes listed in `on`', async () => {
    const flaky = scriptedHttp([new EgressError('connection_failed', 'refused'), status(200)]);
    const { sleep } = fakeSleep();
    await expect(respondBody(callWith({ attempts: 1 }), { ports: { http: flaky, sleep } })).resolves.toEqual({ status: 200, error: null });
    const onlyNetwork = scriptedHttp([status(503), status(200)]);
    await expect(respondBody(callWith({ attempts: 3, on: ['network'] }), { ports: { http: onlyNetwork, sleep } })).resolves.toEqual({ status: 503, error: null });
    expect(onlyNetwork.calls).toBe(1);
  });

  it('never retries an answer the caller got wrong (4xx) or a refused address', async () => {
    const { sleep } = fakeSleep();
    const notFound = scriptedHttp([status(404), status(200)]);
    await expect(respondBody(callWith({ attempts: 3 }), { ports: { http: notFound, sleep } })).resolves.toEqual({ status: 404, error: null });
    const blocked = scriptedHttp([new EgressError('egress_blocked', 'private address'), status(200)]);
    await expect(respondBody(callWith({ attempts: 3 }), { ports: { http: blocked, sleep } })).resolves.toEqual({ status: null, error: 'egress_blocked' });
    expect(notFound.calls + blocked.calls).toBe(2);
  });

  it('does not start a wait that would end after the deadline', async () => {
    const http = scriptedHttp([status(503), status(200)]);
    const { waits, sleep } = fakeSleep();
    await expect(respondBody(callWith({ attempts: 3, delay_ms: 5_000 }), { ports: { http, sleep }, options: { timeoutMs: 1_000 } })).resolves.toEqual({ status: 503, error: null });
    expect(waits).toEqual([]);
  });

  it('retries before taking the error handle: only the last failure is caught', async () => {
    const http = scriptedHttp([status(503)]);
    const { waits, sleep } = fakeSleep();
    const flow = graphFlow(
      [
        { id: 'b', type: 'http_request', config: { name: 'api', url: 'https://api.example.com', fail_on_status: true, retry: { attempts: 2, delay_ms: 50 } } as never },
        { id: 'r', type: 'respond', config: { body: {} } },
        { id: 'e', type: 'respond', config: { status: 502, body: { failed: '{api.error.status}' } } },
      ],
      ['start>b', 'b>r', 'b:error>e'],
    );
    await expect(runFlow(flow, { ports: { http, sleep } })).resolves.toEqual({ type: 'response', status: 502, body: { failed: 503 } });
    expect(waits).toEqual([50, 100]);
  });

  it('retries Generate Text on a provider 5xx and Send Email when the queue cannot be reached', async () => {
    const { waits, sleep } = fakeSleep();
    let calls = 0;
    const textGeneration = { generate: async () => (++calls < 2 ? Promise.reject(new IntegrationError('anthropic', 'overloaded', { status: 529 })) : 'hello') };
    const gen = graphFlow(
      [
        { id: 'g', type: 'generate_text', config: { prompt: 'hi', ref: 'text', retry: { attempts: 1 } } as never },
        { id: 'r', type: 'respond', config: { body: { text: '{result.text}' } } },
      ],
      ['start>g', 'g>r'],
    );
    await expect(respondBody(gen, { ports: { textGeneration, sleep } })).resolves.toEqual({ text: 'hello' });
    let queued = 0;
    const email = { verifiedDomains: ['example.com'], enqueue: async () => (++queued < 3 ? Promise.reject(new Error('connect ECONNREFUSED')) : undefined) };
    const send = graphFlow(
      [
        { id: 's', type: 'send_email', config: { to: 'a@b.co', from: 'Shop <x@example.com>', subject: 's', body: 'b', retry: { attempts: 2, delay_ms: 50, backoff: 'fixed' } } as never },
        { id: 'r', type: 'respond', config: { body: { sent: true } } },
      ],
      ['start>s', 's>r'],
    );
    await expect(respondBody(send, { ports: { email, sleep }, request: request() })).resolves.toEqual({ sent: true });
    expect(queued).toBe(3);
    expect(waits).toEqual([500, 50, 50]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2', 0)).toBe(2_000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:05 GMT', 1_000)).toBe(4_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});
