import { DataPortError, EgressError, IntegrationError, type FlowPorts, type HttpPort, type OutboundResponse } from '../ports';
import { DEFAULT_FLOW_LIMITS } from '../runtime/flow-limits';
import { codes, diagnostics, graphFlow, request, respondBody, runFlow } from '../testing/flow-fixtures';

type Spec = { id: string; type: string; config?: Record<string, never> };
const block = (id: string, type: string, config: Record<string, unknown>): Spec => ({ id, type, config: config as Record<string, never> });
const respond = (body: unknown, id = 'ok') => block(id, 'respond', { body });
const answering = (response: OutboundResponse | Error): HttpPort => ({
  request: async () => {
    if (response instanceof Error) throw response;
    return response;
  },
});

/** Start → `b` → Respond `ok` with `normal`; b's error handle → Respond `failed` with `caught`. */
const withErrorPath = (failing: Spec, normal: unknown, caught: unknown) =>
  graphFlow([failing, respond(normal), respond(caught, 'failed')], ['start>b', 'b>ok', 'b:error>failed']);

describe('error handles', () => {
  it('goes on by the error handle when a request cannot be made, with {REF.error} and a null result', async () => {
    const flow = withErrorPath(block('b', 'http_request', { name: 'api', url: 'https://api.example.com' }), { ok: true }, { error: '{api.error}', status: '{api.status}' });
    const ports = { http: answering(new EgressError('timeout', 'the request timed out')) };
    await expect(respondBody(flow, { ports })).resolves.toEqual({ error: { message: 'the request failed: the request timed out', code: 'timeout' }, status: null });
  });

  it('keeps today’s behaviour without an error handle: {NAME.error} is the code and the flow goes on', async () => {
    const flow = graphFlow([block('b', 'http_request', { name: 'api', url: 'https://api.example.com' }), respond({ error: '{api.error}' })], ['start>b', 'b>ok']);
    const ports = { http: answering(new EgressError('connection_failed', 'refused')) };
    await expect(respondBody(flow, { ports })).resolves.toEqual({ error: 'connection_failed' });
  });

  it('treats a 4xx/5xx answer as a failure with its status when fail_on_status is set', async () => {
    const flow = withErrorPath(block('b', 'http_request', { name: 'api', url: 'https://api.example.com', fail_on_status: true }), { ok: true }, { error: '{api.error}' });
    const ports = { http: answering({ status: 503, headers: {}, body: 'down' }) };
    await expect(respondBody(flow, { ports })).resolves.toEqual({ error: { message: "the answer's status was 503", code: 'http_status', status: 503 } });
    const unhandled = graphFlow([block('b', 'http_request', { name: 'api', url: 'https://api.example.com', fail_on_status: true }), respond({})], ['start>b', 'b>ok']);
    await expect(runFlow(unhandled, { ports })).resolves.toMatchObject({ status: 500, code: 'flow_error', node_id: 'b' });
    const plain = graphFlow([block('b', 'http_request', { name: 'api', url: 'https://api.example.com' }), respond({ s: '{api.status}' })], ['start>b', 'b>ok']);
    await expect(respondBody(plain, { ports })).resolves.toEqual({ s: 503 });
  });

  it.each<[string, Spec, FlowPorts, string]>([
    ['Generate Text', block('b', 'generate_text', { prompt: 'hi', ref: 'gen' }), { textGeneration: { generate: async () => Promise.reject(new IntegrationError('anthropic', 'overloaded', { status: 529 })) } }, 'integration_error'],
    ['Decode Text', block('b', 'decode_text', { input: 'zz', encoding: 'hex', ref: 'gen' }), {}, 'failed'],
    ['Query Rows', block('b', 'query_rows', { table: 'orders', ref: 'gen' }), { data: { query: async () => Promise.reject(new DataPortError('unknown_table', 'no table orders')) } as never }, 'unknown_table'],
    ['Match Regex (dynamic pattern)', block('b', 'match_regex', { input: 'abc', pattern: '{body.p}', ref: 'gen' }), {}, 'failed'],
    [
      'Manipulate Image',
      block('b', 'manipulate_image', { image_url: 'https://img.example.com/a.png', operation: 'blur', value: 3, ref: 'gen' }),
      { images: { manipulate: async () => Promise.reject(new IntegrationError('images', 'not an image')) } as never },
      'integration_error',
    ],
  ])('catches a failure of %s on its error handle', async (_name, failing, ports, code) => {
    const flow = withErrorPath(failing, { ok: '{result.gen}' }, { code: '{gen.error.code}', result: '{result.gen}' });
    await expect(respondBody(flow, { ports, request: request({ body: { p: '(a' } }) })).resolves.toEqual({ code, result: null });
  });

  it('catches Send Email’s failure: the path alone, or with {REF.error} when it has a reference name', async () => {
    const email = { verifiedDomains: ['example.com'], enqueue: async () => Promise.reject(new IntegrationError('sendgrid', 'queue down')) };
    const message = { to: 'a@b.co', from: 'Shop <x@example.com>', subject: 's', body: 'b' };
    const flow = withErrorPath(block('b', 'send_email', message), { sent: true }, { sent: false });
    await expect(respondBody(flow, { ports: { email } })).resolves.toEqual({ sent: false });
    const named = withErrorPath(block('b', 'send_email', { ...message, ref: 'mail' }), { sent: true }, { sent: false, code: '{mail.error.code}' });
    expect(diagnostics(named)).toEqual([]);
    await expect(respondBody(named, { ports: { email } })).resolves.toEqual({ sent: false, code: 'integration_error' });
  });

  it('never catches a budget: run_memory_exceeded and flow_timeout end the request (iteration_limit comes from For Each, which has no error handle)', async () => {
    const limits = { ...DEFAULT_FLOW_LIMITS, maxRunBytes: 1_000 };
    const big = withErrorPath(block('b', 'decode_text', { input: '{body.t}', encoding: 'utf8', ref: 'gen' }), {}, { caught: true });
    await expect(runFlow(big, { request: request({ body: { t: 'x'.repeat(600) } }), options: { limits } })).resolves.toMatchObject({ code: 'run_memory_exceeded' });
    const slow: HttpPort = { request: (_request, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new EgressError('timeout', 'aborted')))) };
    const waiting = withErrorPath(block('b', 'http_request', { name: 'api', url: 'https://api.example.com' }), {}, { caught: true });
    await expect(runFlow(waiting, { ports: { http: slow }, options: { timeoutMs: 20 } })).resolves.toMatchObject({ status: 504, code: 'flow_timeout' });
  });

  it('offers the error handle only on blocks that can fail on their own', () => {
    const onRespond = graphFlow([block('b', 'manipulate_text', { input: 'a', operation: 'uppercase', ref: 'u' }), respond({}), respond({}, 'failed')], ['start>b', 'b>ok', 'b:error>failed']);
    expect(codes(diagnostics(onRespond))).toContain('invalid_error_handle');
    const staticRegex = graphFlow([block('b', 'match_regex', { input: 'a', pattern: 'a+', ref: 'm' }), respond({}), respond({}, 'failed')], ['start>b', 'b>ok', 'b:error>failed']);
    expect(codes(diagnostics(staticRegex))).toContain('invalid_error_handle');
  });

  it('lets a body block of a For Each recover per item', async () => {
    const flow = graphFlow(
      [
        block('f', 'for_each', { list: '{body.hex}', collect: '{local.text}', ref: 'out' }),
        block('b', 'decode_text', { input: '{local.item}', encoding: 'hex', ref: 'dec' }),
        block('good', 'set_variable', { name: 'text', value: '{result.dec}' }),
        block('bad', 'set_variable', { name: 'text', value: 'unreadable: {dec.error.code}' }),
        respond({ out: '{local.out}' }),
      ],
      ['start>f', 'f:each>b', 'b>good', 'b:error>bad', 'f:done>ok'],
    );
    await expect(respondBody(flow, { request: request({ body: { hex: ['6869', 'zz'] } }) })).resolves.toEqual({ out: ['hi', 'unreadable: failed'] });
  });
});
