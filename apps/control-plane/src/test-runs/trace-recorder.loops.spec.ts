import { compileFlow, executeFlow, prepareFlow, type CodePort, type FlowDocument, type HttpPort } from '@flowgate/flow-engine';
import { TraceRecorder } from './trace-recorder';

const position = { x: 0, y: 0 };
const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, position, config: config as Record<string, never> });
const edge = (source: string, target: string, sourceHandle?: string) => ({ id: `${source}-${sourceHandle ?? 'next'}-${target}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) });

async function traceOf(flow: FlowDocument, body: unknown, http?: HttpPort, sleep?: (ms: number) => Promise<void>, code?: CodePort) {
  const compiled = compileFlow({ flow, settings: { name: 'T', method: 'POST', path: '/t', auth: 'none', query_params: [] } });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  const recorder = new TraceRecorder();
  const request = { method: 'POST', path: '/t', query: new URLSearchParams(), body, headers: {} };
  await executeFlow(prepareFlow(compiled.compiled), request, { http, sleep, code }, { tracer: recorder });
  return recorder.entries;
}

describe('test-run trace of loops, error paths and retries', () => {
  it('marks body entries with the For Each and the iteration, keeps 20 iterations and counts the rest', async () => {
    const flow = {
      nodes: [node('start', 'start'), node('f', 'for_each', { list: '{body.items}', ref: 'n' }), node('u', 'manipulate_text', { input: '{local.item}', operation: 'uppercase', ref: 'up' }), node('r', 'respond', { body: { n: '{local.n}' } })],
      edges: [edge('start', 'f'), edge('f', 'u', 'each'), edge('f', 'r', 'done')],
    };
    const entries = await traceOf(flow, { items: Array.from({ length: 23 }, (_, i) => `x${i}`) });
    const loop = entries.find((entry) => entry.node_id === 'f');
    expect(loop).toMatchObject({ status: 'ok', output: 23, iterations_not_shown: 3 });
    const body = entries.filter((entry) => entry.node_id === 'u');
    expect(body).toHaveLength(20);
    expect(body[0]).toMatchObject({ loop_id: 'f', iteration: 0, output: 'X0' });
    expect(body[19]).toMatchObject({ loop_id: 'f', iteration: 19, output: 'X19' });
    expect(entries.map((entry) => entry.node_id).at(-1)).toBe('r');
  });

  it('shows each attempt of a retried request and the error path taken', async () => {
    const http: HttpPort = { request: async () => ({ status: 503, headers: {}, body: 'down' }) };
    const flow = {
      nodes: [
        node('start', 'start'),
        node('g', 'http_request', { name: 'api', url: 'https://api.example.com', fail_on_status: true, retry: { attempts: 1, delay_ms: 50 } }),
        node('ok', 'respond', { body: {} }),
        node('e', 'respond', { status: 502, body: { error: '{api.error.code}' } }),
      ],
      edges: [edge('start', 'g'), edge('g', 'ok'), edge('g', 'e', 'error')],
    };
    const entries = await traceOf(flow, {}, http, async () => undefined);
    expect(entries[0]).toMatchObject({
      node_id: 'g',
      status: 'error',
      error_path: true,
      error: { code: 'http_status', status: 503 },
      attempts: [
        { attempt: 1, outcome: 'http_503', wait_ms: 50 },
        { attempt: 2, outcome: 'http_503', wait_ms: 0 },
      ],
    });
    expect(entries[1]).toMatchObject({ node_id: 'e', status: 'ok', output: { status: 502, body: { error: 'http_status' } } });
  });

  it("puts each iteration's Run Code console on that iteration's entry, also with iterations at once", async () => {
    const flow = {
      nodes: [
        node('start', 'start'),
        node('f', 'for_each', { list: '{body.items}', concurrency: 3, ref: 'n' }),
        node('c', 'run_code', { code: 'console.log(input.i)', inputs: [{ name: 'i', value: '{local.item}' }], ref: 'out' }),
        node('r', 'respond', { body: { n: '{local.n}' } }),
      ],
      edges: [edge('start', 'f'), edge('f', 'c', 'each'), edge('f', 'r', 'done')],
    };
    // Answers arrive in reverse order: the console lines must still follow their iteration.
    const code: CodePort = {
      run: (task) =>
        new Promise((resolve) => setTimeout(() => resolve({ ok: true, result: null, console: [{ level: 'log', text: String(task.input.i) }] }), 30 - 10 * Number(task.input.i))),
    };
    const entries = await traceOf(flow, { items: [0, 1, 2] }, undefined, undefined, code);
    const runs = entries.filter((entry) => entry.node_id === 'c');
    expect(runs.map((entry) => [entry.iteration, entry.console])).toEqual([
      [0, [{ level: 'log', text: '0' }]],
      [1, [{ level: 'log', text: '1' }]],
      [2, [{ level: 'log', text: '2' }]],
    ]);
  });
});
