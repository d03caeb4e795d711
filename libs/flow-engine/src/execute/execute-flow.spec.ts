import type { HttpPort, OutboundResponse } from '../ports';
import { compileFlow } from '../compile/compile-flow';
import { executeFlow, runFlow as runPrepared } from './execute-flow';
import { prepareFlow } from './prepare-flow';
import { graphFlow, linearFlow, request, respondingFlow, runFlow, settings } from '../testing/flow-fixtures';

const setVar = (id: string, name: string, value: string) => ({ id, type: 'set_variable', config: { name, value } });
const call = (id: string, name: string) => ({ id, type: 'http_request', config: { name, url: 'https://api.example.com/{body.n}' } });

/** An HTTP port whose answers the test releases by hand. */
function manualHttp() {
  const pending: Array<{ url: string; signal: AbortSignal; resolve: (response: OutboundResponse) => void }> = [];
  const http: HttpPort = { request: (outbound, signal) => new Promise((resolve) => pending.push({ url: outbound.url, signal, resolve })) };
  return { http, pending };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('flow execution', () => {
  it('runs the blocks in order and answers with Respond', async () => {
    const flow = respondingFlow([{ type: 'set_variable', config: { name: 'a', value: 'x' } }, { type: 'manipulate_text', config: { input: '{local.a}', operation: 'concatenate', append: 'y', ref: 'b' } }], { b: '{result.b}' });
    await expect(runFlow(flow)).resolves.toEqual({ type: 'response', status: 200, body: { b: 'xy' } });
  });

  it('answers 200 {} for an empty flow', async () => {
    await expect(runFlow(linearFlow([]))).resolves.toEqual({ type: 'response', status: 200, body: {} });
  });

  it('never rejects: an exception inside a block becomes a flow_error naming the block', async () => {
    const flow = respondingFlow([{ id: 'clock', type: 'set_variable', config: { name: 't', value: '{current_time}' } }], {});
    const now = () => {
      throw new Error('clock unavailable');
    };
    await expect(runFlow(flow, { ports: { now } })).resolves.toEqual({
      type: 'error',
      status: 500,
      code: 'flow_error',
      message: 'Set Variable (clock): failed unexpectedly (clock unavailable)',
      node_id: 'clock',
    });
  });

  it('gives the result itself (no promise) when no block called a port, a promise otherwise', async () => {
    const prepare = (flow: ReturnType<typeof respondingFlow>) => {
      const compiled = compileFlow({ flow, settings: settings() });
      if (!compiled.ok) throw new Error('expected the flow to compile');
      return prepareFlow(compiled.compiled);
    };
    const synchronous = runPrepared(prepare(respondingFlow([setVar('a', 'a', 'x')], { a: '{local.a}' })), request(), {});
    expect(synchronous).toEqual({ type: 'response', status: 200, body: { a: 'x' } });
    const { http, pending } = manualHttp();
    const waiting = runPrepared(prepare(respondingFlow([call('c', 'api')], { done: true })), request({ body: { n: 1 } }), { http });
    expect(waiting).toBeInstanceOf(Promise);
    await flush();
    pending[0]!.resolve({ status: 200, headers: {}, body: '{}' });
    await expect(waiting).resolves.toEqual({ type: 'response', status: 200, body: { done: true } });
  });

  it('never rejects on a request it cannot read', async () => {
    const compiled = compileFlow({ flow: respondingFlow([], { p: '{params.p}' }), settings: settings({ query_params: [{ key: 'p', default: null }] }) });
    if (!compiled.ok) throw new Error('expected the flow to compile');
    const broken = { ...request(), query: undefined } as never;
    await expect(executeFlow(prepareFlow(compiled.compiled), broken, {})).resolves.toMatchObject({ type: 'error', code: 'flow_error', status: 500, node_id: null, message: expect.stringMatching(/^The flow: failed unexpectedly/) });
  });

  /** Eight synchronous blocks: long enough for the executor to read the clock between them. */
  const longFlow = respondingFlow(
    Array.from({ length: 8 }, (_, index) => setVar(`s${index}`, `v${index}`, 'x')),
    { done: true },
  );

  it('stops between blocks once the deadline has passed', async () => {
    const result = await runFlow(longFlow, { options: { timeoutMs: 0 } });
    expect(result).toMatchObject({ type: 'error', status: 504, code: 'flow_timeout', message: 'The flow did not finish before its deadline.' });
    expect(result.type === 'error' && result.node_id).toMatch(/^s[1-7]$/);
  });

  it('stops at an absolute deadline (deadlineAt) as at a budget', async () => {
    const flow = longFlow;
    await expect(runFlow(flow, { options: { deadlineAt: Date.now() - 1 } })).resolves.toMatchObject({ code: 'flow_timeout' });
    await expect(runFlow(flow, { options: { deadlineAt: Date.now() + 60_000 } })).resolves.toMatchObject({ type: 'response' });
  });

  it('times out a port call that outlives the deadline and aborts its signal', async () => {
    const { http, pending } = manualHttp();
    const result = await runFlow(respondingFlow([call('slow', 'api')], {}), { ports: { http }, options: { timeoutMs: 20 } });
    expect(result).toMatchObject({ type: 'error', status: 504, code: 'flow_timeout', node_id: 'slow' });
    expect(pending[0].signal.aborted).toBe(true);
  });

  it('answers 503 when the caller cancels, and aborts the pending port call', async () => {
    const { http, pending } = manualHttp();
    const controller = new AbortController();
    const compiled = compileFlow({ flow: respondingFlow([call('c', 'api')], {}), settings: settings() });
    if (!compiled.ok) throw new Error('expected the flow to compile');
    const running = executeFlow(prepareFlow(compiled.compiled), request({ body: { n: 1 } }), { http }, { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(running).resolves.toMatchObject({ type: 'error', status: 503, code: 'unavailable', node_id: 'c' });
    expect(pending[0].signal.aborted).toBe(true);
  });

  it('answers 503 without running anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runFlow(respondingFlow([], { a: 1 }), { options: { signal: controller.signal } })).resolves.toMatchObject({ status: 503, code: 'unavailable', node_id: null });
  });

  it('runs synchronous blocks and branches after an asynchronous one', async () => {
    const { http, pending } = manualHttp();
    const flow = graphFlow(
      [
        call('c', 'api'),
        { id: 'check', type: 'condition', config: { left: '{api.status}', operator: 'eq', right: 200 } },
        { id: 'ok', type: 'respond', config: { body: { got: '{api.body}' } } },
        { id: 'bad', type: 'return_error', config: { status: 502, message: 'upstream said {api.status}' } },
      ],
      ['start>c', 'c>check', 'check:true>ok', 'check:false>bad'],
    );
    const running = runFlow(flow, { ports: { http }, request: request({ body: { n: 1 } }) });
    await flush();
    pending[0].resolve({ status: 500, headers: {}, body: 'boom' });
    await expect(running).resolves.toMatchObject({ type: 'error', status: 502, code: 'bad_gateway', message: 'upstream said 500' });
  });

  it('keeps the variables of concurrent runs of one prepared flow apart', async () => {
    const { http, pending } = manualHttp();
    const compiled = compileFlow({ flow: respondingFlow([setVar('v', 'mine', '{body.n}'), call('c', 'api')], { mine: '{local.mine}', url: '{api.body}' }), settings: settings() });
    if (!compiled.ok) throw new Error('expected the flow to compile');
    const prepared = prepareFlow(compiled.compiled);
    const first = executeFlow(prepared, request({ body: { n: 1 } }), { http });
    const second = executeFlow(prepared, request({ body: { n: 2 } }), { http });
    await flush();
    for (const call of [...pending].reverse()) call.resolve({ status: 200, headers: {}, body: call.url });
    await expect(Promise.all([first, second])).resolves.toEqual([
      { type: 'response', status: 200, body: { mine: 1, url: 'https://api.example.com/1' } },
      { type: 'response', status: 200, body: { mine: 2, url: 'https://api.example.com/2' } },
    ]);
  });
});
