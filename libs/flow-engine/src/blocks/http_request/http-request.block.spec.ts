import { MAX_JSON_DEPTH } from '@flowgate/contracts';
import { EgressError, type HttpPort, type OutboundRequest, type OutboundResponse } from '../../ports';
import { diagnostics, linearFlow, request, respondBody, respondingFlow, runFlow } from '../../testing/flow-fixtures';

/** A fake port that records what it was asked and answers as told. */
function fakeHttp(answer: (request: OutboundRequest) => OutboundResponse | Promise<OutboundResponse>): HttpPort & { calls: OutboundRequest[]; signals: AbortSignal[] } {
  const calls: OutboundRequest[] = [];
  const signals: AbortSignal[] = [];
  return {
    calls,
    signals,
    request: async (outbound, signal) => {
      calls.push(outbound);
      signals.push(signal);
      return answer(outbound);
    },
  };
}

const json = (status: number, body: unknown): OutboundResponse => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
const call = (config: Record<string, unknown> = {}) => ({ id: 'call', type: 'http_request', config: { name: 'api', url: 'https://api.example.com/items?q={body.q}', ...config } as never });
const readAll = { status: '{api.status}', body: '{api.body}', error: '{api.error}' };

describe('Send External Request block', () => {
  it('exposes status, parsed JSON body and body fields by block name', async () => {
    const http = fakeHttp(() => json(200, { items: [{ id: 7 }], total: 1 }));
    const flow = respondingFlow([call()], { ...readAll, first: '{api.body.items.0.id}', total: '{result.api.body.total}' });
    await expect(respondBody(flow, { ports: { http }, request: request({ body: { q: 'tea' } }) })).resolves.toEqual({
      status: 200,
      body: { items: [{ id: 7 }], total: 1 },
      error: null,
      first: 7,
      total: 1,
    });
    expect(http.calls).toEqual([{ method: 'GET', url: 'https://api.example.com/items?q=tea', headers: {} }]);
  });

  it('keeps a non-JSON response body as text', async () => {
    const http = fakeHttp(() => ({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>nope</h1>' }));
    await expect(respondBody(respondingFlow([call()], readAll), { ports: { http } })).resolves.toEqual({ status: 404, body: '<h1>nope</h1>', error: null });
  });

  it('keeps a JSON response nested deeper than MAX_JSON_DEPTH as text, so answering it cannot overflow the stack', async () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    const http = fakeHttp(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: deep }));
    await expect(respondBody(respondingFlow([call()], readAll), { ports: { http } })).resolves.toEqual({ status: 200, body: deep, error: null });
  });

  it('turns an egress error into a null status and {NAME.error}, and the flow goes on', async () => {
    const http = fakeHttp(() => {
      throw new EgressError('egress_blocked', 'private address');
    });
    await expect(respondBody(respondingFlow([call()], readAll), { ports: { http } })).resolves.toEqual({ status: null, body: null, error: 'egress_blocked' });
  });

  it.each(['timeout', 'connection_failed', 'response_too_large'] as const)('reports %s in {NAME.error}', async (code) => {
    const http = fakeHttp(() => {
      throw new EgressError(code, code);
    });
    await expect(respondBody(respondingFlow([call()], { error: '{api.error}' }), { ports: { http } })).resolves.toEqual({ error: code });
  });

  it('treats a missing HTTP port as egress_blocked', async () => {
    await expect(respondBody(respondingFlow([call()], readAll))).resolves.toEqual({ status: null, body: null, error: 'egress_blocked' });
  });

  it('reports invalid_url when a templated URL is not an http(s) URL', async () => {
    const http = fakeHttp(() => json(200, {}));
    await expect(respondBody(respondingFlow([call({ url: '{body.q}' })], readAll), { ports: { http }, request: request({ body: { q: 'file:///etc/passwd' } }) })).resolves.toMatchObject({
      error: 'invalid_url',
    });
    expect(http.calls).toEqual([]);
  });

  it('sends an object body as JSON with content-type application/json, and templated headers', async () => {
    const http = fakeHttp(() => json(201, { ok: true }));
    const flow = respondingFlow([call({ method: 'POST', headers: [{ key: 'X-Token', value: 't-{body.q}' }], body: { query: '{body.q}', n: 1 } })], { status: '{api.status}' });
    await respondBody(flow, { ports: { http }, request: request({ body: { q: 'tea' } }) });
    expect(http.calls[0]).toEqual({
      method: 'POST',
      url: 'https://api.example.com/items?q=tea',
      headers: { 'X-Token': 't-tea', 'content-type': 'application/json' },
      body: '{"query":"tea","n":1}',
    });
  });

  it('sends a text body as JSON when it parses as JSON after templating, else as plain text', async () => {
    const http = fakeHttp(() => json(200, {}));
    await respondBody(respondingFlow([call({ method: 'PUT', body: '{"q": "{body.q}"}' })], {}), { ports: { http }, request: request({ body: { q: 'tea' } }) });
    await respondBody(respondingFlow([call({ method: 'PUT', body: 'q={body.q}' })], {}), { ports: { http }, request: request({ body: { q: 'tea' } }) });
    expect(http.calls.map((sent) => [sent.body, sent.headers['content-type']])).toEqual([
      ['{"q": "tea"}', 'application/json'],
      ['q=tea', 'text/plain; charset=utf-8'],
    ]);
  });

  it('keeps a Content-Type the flow sets itself', async () => {
    const http = fakeHttp(() => json(200, {}));
    await respondBody(respondingFlow([call({ method: 'POST', headers: [{ key: 'Content-Type', value: 'application/x-www-form-urlencoded' }], body: 'a=1' })], {}), { ports: { http } });
    expect(http.calls[0].headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' });
  });

  it('sends no body with GET and warns about it at deploy', async () => {
    const http = fakeHttp(() => json(200, {}));
    const flow = respondingFlow([call({ body: { a: 1 } })], {});
    expect(diagnostics(flow)).toEqual([expect.objectContaining({ severity: 'warning', code: 'body_ignored' })]);
    await respondBody(flow, { ports: { http } });
    expect(http.calls[0].body).toBeUndefined();
  });

  it('passes a signal that fires at the flow deadline, and the flow then times out', async () => {
    const http = fakeHttp(() => new Promise<OutboundResponse>(() => undefined));
    const result = await runFlow(respondingFlow([call()], {}), { ports: { http }, options: { timeoutMs: 30 } });
    expect(result).toEqual({ type: 'error', status: 504, code: 'flow_timeout', message: 'The flow did not finish before its deadline.', node_id: 'call' });
    expect(http.signals[0].aborted).toBe(true);
  });

  it('refuses a static URL that is not http(s) and duplicate header names', () => {
    expect(diagnostics(linearFlow([call({ url: 'ftp://example.com' }), { type: 'respond' }]))).toEqual([expect.objectContaining({ code: 'invalid_url', field: 'url' })]);
    const headers = [{ key: 'X-A', value: '1' }, { key: 'x-a', value: '2' }];
    expect(diagnostics(linearFlow([call({ headers }), { type: 'respond' }]))).toEqual([expect.objectContaining({ code: 'duplicate_header', field: 'headers' })]);
  });

  it('does not fail the flow on an unexpected port error', async () => {
    const http = fakeHttp(() => {
      throw new Error('socket hang up');
    });
    await expect(runFlow(respondingFlow([call()], { error: '{api.error}' }), { ports: { http } })).resolves.toEqual({ type: 'response', status: 200, body: { error: 'connection_failed' } });
  });
});
