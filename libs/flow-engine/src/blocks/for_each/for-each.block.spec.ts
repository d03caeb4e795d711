import type { HttpPort, OutboundResponse } from '../../ports';
import { DEFAULT_FLOW_LIMITS } from '../../runtime/flow-limits';
import { codes, diagnostics, graphFlow, request, respondBody, runFlow } from '../../testing/flow-fixtures';

type Spec = { id: string; type: string; config?: Record<string, never> };
const block = (id: string, type: string, config: Record<string, unknown>): Spec => ({ id, type, config: config as Record<string, never> });
const forEach = (id: string, config: Record<string, unknown>) => block(id, 'for_each', { list: '{body.items}', ref: 'out', ...config });
const respond = (body: unknown, id = 'r') => block(id, 'respond', { body });
const upper = (id: string, input: string, ref: string) => block(id, 'manipulate_text', { input, operation: 'uppercase', ref });
const items = (list: unknown) => ({ request: request({ body: { items: list } }) });

/** Start → For Each `f` (body: uppercase the item, collected) → Respond with the list. */
const upperEach = (config: Record<string, unknown> = {}) =>
  graphFlow([forEach('f', { collect: '{result.up}', ...config }), upper('u', '{local.item}', 'up'), respond({ out: '{local.out}' })], ['start>f', 'f:each>u', 'f:done>r']);

describe('For Each block', () => {
  it('runs its body once per element and collects in list order', async () => {
    await expect(respondBody(upperEach(), items(['a', 'b', 'c']))).resolves.toEqual({ out: ['A', 'B', 'C'] });
  });

  it('gives the number of iterations without collect, readable as {REF} too', async () => {
    const flow = graphFlow([forEach('f', {}), upper('u', '{local.item}', 'up'), respond({ n: '{local.out}', same: '{out}' })], ['start>f', 'f:each>u', 'f:done>r']);
    await expect(respondBody(flow, items([1, 2, 3, 4]))).resolves.toEqual({ n: 4, same: 4 });
  });

  it('reads the index, and everything set before the loop, in each iteration', async () => {
    const flow = graphFlow(
      [block('v', 'set_variable', { name: 'prefix', value: '#' }), forEach('f', { item: 'fruit', collect: '{local.prefix}{local.fruit_index}:{local.fruit}' }), respond({ out: '{local.out}' })],
      ['start>v', 'v>f', 'f:done>r'],
    );
    await expect(respondBody(flow, items(['apple', 'pear']))).resolves.toEqual({ out: ['#0:apple', '#1:pear'] });
  });

  it('gives each iteration its own scope: what one sets is not seen by the next', async () => {
    const flow = graphFlow(
      [
        block('v', 'set_variable', { name: 'seen', value: 'before' }),
        forEach('f', { collect: '{local.seen}' }),
        block('c', 'condition', { left: '{local.item_index}', operator: 'eq', right: 0 }),
        block('w', 'set_variable', { name: 'seen', value: 'first only' }),
        respond({ out: '{local.out}', after: '{local.seen}' }),
      ],
      ['start>v', 'v>f', 'f:each>c', 'c:true>w', 'f:done>r'],
    );
    await expect(respondBody(flow, items(['x', 'y', 'z']))).resolves.toEqual({ out: ['first only', 'before', 'before'], after: 'before' });
  });

  it('drops null collect values so a Condition filters, unless keep_nulls', async () => {
    const flow = (keep: boolean) =>
      graphFlow(
        [
          forEach('f', { collect: '{local.kept}', keep_nulls: keep }),
          block('c', 'condition', { left: '{local.item}', operator: 'gt', right: 2 }),
          block('k', 'set_variable', { name: 'kept', value: '{local.item}' }),
          respond({ out: '{local.out}' }),
        ],
        ['start>f', 'f:each>c', 'c:true>k', 'f:done>r'],
      );
    await expect(respondBody(flow(false), items([1, 5, 2, 7]))).resolves.toEqual({ out: [5, 7] });
    await expect(respondBody(flow(true), items([1, 5, 2, 7]))).resolves.toEqual({ out: [null, 5, null, 7] });
  });

  it('nests: an inner loop runs in each outer iteration and reads the outer item', async () => {
    const flow = graphFlow(
      [
        forEach('outer', { item: 'row', collect: '{local.cells}', ref: 'grid' }),
        block('inner', 'for_each', { list: '{local.row}', item: 'cell', collect: '{local.row_index}.{local.cell}', ref: 'cells' }),
        respond({ grid: '{local.grid}' }),
      ],
      ['start>outer', 'outer:each>inner', 'outer:done>r'],
    );
    await expect(respondBody(flow, items([['a', 'b'], ['c']]))).resolves.toEqual({ grid: [['0.a', '0.b'], ['1.c']] });
  });

  it('answers from inside the body: the first Respond ends the request', async () => {
    const flow = graphFlow(
      [
        forEach('f', {}),
        block('c', 'condition', { left: '{local.item}', operator: 'eq', right: 'needle' }),
        respond({ found: '{local.item_index}' }, 'hit'),
        respond({ found: null }),
      ],
      ['start>f', 'f:each>c', 'c:true>hit', 'f:done>r'],
    );
    await expect(respondBody(flow, items(['hay', 'needle', 'hay', 'needle']))).resolves.toEqual({ found: 1 });
    await expect(respondBody(flow, items(['hay']))).resolves.toEqual({ found: null });
  });

  it('fails with a clear error when List is not a list', async () => {
    await expect(runFlow(upperEach(), items('abc'))).resolves.toMatchObject({ status: 500, code: 'flow_error', node_id: 'f', message: expect.stringContaining('For Each (f): List must give a list') });
  });

  it('stops a run past FLOW_MAX_ITERATIONS with 422 iteration_limit naming the block, nested loops counted together', async () => {
    const limits = { ...DEFAULT_FLOW_LIMITS, maxIterations: 5 };
    await expect(respondBody(upperEach(), { ...items([1, 2, 3, 4, 5]), options: { limits } })).resolves.toEqual({ out: ['1', '2', '3', '4', '5'] });
    await expect(runFlow(upperEach(), { ...items([1, 2, 3, 4, 5, 6]), options: { limits } })).resolves.toMatchObject({ status: 422, code: 'iteration_limit', node_id: 'f' });
    const nested = graphFlow(
      [forEach('outer', { item: 'row' }), block('inner', 'for_each', { list: '{local.row}', ref: 'cells' }), respond({})],
      ['start>outer', 'outer:each>inner', 'outer:done>r'],
    );
    // 2 outer + 4 inner iterations = 6.
    await expect(runFlow(nested, { ...items([[1, 2], [3, 4]]), options: { limits } })).resolves.toMatchObject({ status: 422, code: 'iteration_limit', node_id: 'inner' });
  });

  it('counts what the iterations keep against FLOW_MAX_RUN_BYTES', async () => {
    const limits = { ...DEFAULT_FLOW_LIMITS, maxRunBytes: 2_000 };
    const big = Array.from({ length: 10 }, () => 'x'.repeat(150));
    // Each collected value is 300 bytes: the budget holds six of them.
    const result = await runFlow(upperEach(), { ...items(big), options: { limits } });
    expect(result).toMatchObject({ status: 422, code: 'run_memory_exceeded' });
  });
});

describe('For Each at deploy', () => {
  it('refuses a body connection that leaves the loop (loop_body_escapes)', () => {
    const flow = graphFlow([forEach('f', {}), upper('u', '{local.item}', 'up'), respond({})], ['start>f', 'f:each>u', 'u>r', 'f:done>r']);
    expect(diagnostics(flow)).toContainEqual(expect.objectContaining({ code: 'loop_body_escapes', node_id: 'u', severity: 'error' }));
  });

  it('refuses a body that leads back into the For Each (cycle)', () => {
    const flow = graphFlow([forEach('f', {}), upper('u', '{local.item}', 'up'), respond({})], ['start>f', 'f:each>u', 'u>f', 'f:done>r']);
    expect(codes(diagnostics(flow))).toContain('cycle');
  });

  it('nests to a depth of 3, not 4', () => {
    const chain = (depth: number) =>
      graphFlow(
        [...Array.from({ length: depth }, (_, i) => block(`l${i}`, 'for_each', { list: i === 0 ? '{body.items}' : `{local.i${i - 1}}`, item: `i${i}`, ref: `r${i}` })), respond({})],
        ['start>l0', ...Array.from({ length: depth - 1 }, (_, i) => `l${i}:each>l${i + 1}`), 'l0:done>r'],
      );
    expect(codes(diagnostics(chain(3)))).not.toContain('loop_too_deep');
    expect(diagnostics(chain(4))).toContainEqual(expect.objectContaining({ code: 'loop_too_deep', node_id: 'l3' }));
  });

  it('scopes names: the item only in the body, the collected list only after, body results never after', () => {
    const inBodyReadsList = graphFlow([forEach('f', {}), upper('u', '{local.out}', 'up'), respond({})], ['start>f', 'f:each>u', 'f:done>r']);
    expect(codes(diagnostics(inBodyReadsList))).toContain('unresolved_reference');
    const afterReadsItem = graphFlow([forEach('f', {}), upper('u', '{local.item}', 'up'), respond({ i: '{local.item}' })], ['start>f', 'f:each>u', 'f:done>r']);
    expect(diagnostics(afterReadsItem)).toContainEqual(expect.objectContaining({ code: 'unresolved_reference', node_id: 'r' }));
    const afterReadsBody = graphFlow([forEach('f', {}), upper('u', '{local.item}', 'up'), respond({ u: '{result.up}' })], ['start>f', 'f:each>u', 'f:done>r']);
    expect(diagnostics(afterReadsBody)).toContainEqual(expect.objectContaining({ code: 'unresolved_reference', node_id: 'r' }));
  });

  it('takes only the each and done handles, and no end-without-Respond warning inside a body', () => {
    const flow = graphFlow([forEach('f', {}), upper('u', '{local.item}', 'up'), respond({})], ['start>f', 'f:each>u', 'f:done>r']);
    expect(codes(diagnostics(flow))).toEqual([]);
    const wrong = graphFlow([forEach('f', {}), respond({})], ['start>f', 'f>r']);
    expect(codes(diagnostics(wrong))).toContain('invalid_loop_handle');
  });

  it('refuses a concurrency outside 1–10', () => {
    expect(codes(diagnostics(upperEach({ concurrency: 11 })))).toContain('invalid_field');
    expect(codes(diagnostics(upperEach({ concurrency: 0 })))).toContain('invalid_field');
  });
});

/** An HTTP port whose answers come back in the order the test releases them. */
function manualHttp() {
  const pending: Array<{ url: string; resolve: (response: OutboundResponse) => void; signal: AbortSignal }> = [];
  const http: HttpPort = { request: (outbound, signal) => new Promise((resolve) => pending.push({ url: outbound.url, resolve, signal })) };
  return { http, pending };
}
const flush = () => new Promise((resolve) => setImmediate(resolve));
const answer = (text: string): OutboundResponse => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(text) });

describe('For Each with concurrency', () => {
  const fetchEach = (concurrency: number, extra: Spec[] = [], edges: string[] = []) =>
    graphFlow(
      [forEach('f', { concurrency, collect: '{api.body}' }), block('g', 'http_request', { name: 'api', url: 'https://api.example.com/{local.item}' }), respond({ out: '{local.out}' }), ...extra],
      ['start>f', 'f:each>g', 'f:done>r', ...edges],
    );

  it('runs that many iterations at once and keeps list order whatever order the answers come in', async () => {
    const { http, pending } = manualHttp();
    const result = respondBody(fetchEach(3), { ...items(['a', 'b', 'c', 'd']), ports: { http } });
    await flush();
    expect(pending.map((call) => call.url)).toEqual(['https://api.example.com/a', 'https://api.example.com/b', 'https://api.example.com/c']);
    pending[2].resolve(answer('C'));
    await flush();
    expect(pending).toHaveLength(4);
    pending[3].resolve(answer('D'));
    pending[1].resolve(answer('B'));
    pending[0].resolve(answer('A'));
    await expect(result).resolves.toEqual({ out: ['A', 'B', 'C', 'D'] });
  });

  it('runs one at a time by default', async () => {
    const { http, pending } = manualHttp();
    const result = respondBody(fetchEach(1), { ...items(['a', 'b']), ports: { http } });
    await flush();
    expect(pending).toHaveLength(1);
    pending[0].resolve(answer('A'));
    await flush();
    expect(pending).toHaveLength(2);
    pending[1].resolve(answer('B'));
    await expect(result).resolves.toEqual({ out: ['A', 'B'] });
  });

  it('lets the first Respond inside the body win and cancels the other iterations', async () => {
    const { http, pending } = manualHttp();
    const flow = fetchEach(2, [respond({ first: '{api.body}' }, 'hit')], ['g>hit']);
    const flowWithoutDone = { ...flow, edges: flow.edges.filter((edge) => !(edge.source === 'f' && edge.target === 'r')) };
    flowWithoutDone.nodes = flowWithoutDone.nodes.filter((node) => node.id !== 'r');
    const result = respondBody(flowWithoutDone, { ...items(['a', 'b']), ports: { http } });
    await flush();
    pending[1].resolve(answer('B'));
    await expect(result).resolves.toEqual({ first: 'B' });
    expect(pending[0].signal.aborted).toBe(true);
  });
});

describe('For Each and the event loop', () => {
  /** Each iteration changes the case of a 200,000-character text: many slices' worth in all. */
  const heavy = (concurrency: number) =>
    graphFlow(
      [forEach('f', { list: '{body.items}', concurrency }), upper('u', '{body.s}', 'up'), respond({ n: '{local.out}' })],
      ['start>f', 'f:each>u', 'f:done>r'],
    );
  const heavyRequest = () => ({ request: request({ body: { items: Array.from({ length: 30 }, (_, i) => i), s: 'ab'.repeat(100_000) } }) });

  it('asks the scheduler for one turn at a time, whatever the concurrency (one share of the loop)', async () => {
    let waiting = 0;
    let most = 0;
    let turns = 0;
    const scheduler = {
      turn: () => {
        most = Math.max(most, ++waiting);
        turns++;
        return new Promise<number>((resolve) =>
          setImmediate(() => {
            waiting--;
            resolve(1);
          }),
        );
      },
      sliceEnded: () => undefined,
    };
    await expect(respondBody(heavy(10), { ...heavyRequest(), options: { scheduler } })).resolves.toEqual({ n: 30 });
    expect(turns).toBeGreaterThan(1);
    expect(most).toBe(1);
  });

  it('stops a loop that uses up the CPU budget (504 flow_cpu_exceeded)', async () => {
    const limits = { ...DEFAULT_FLOW_LIMITS, cpuBudgetMs: 0.001 };
    await expect(runFlow(heavy(3), { ...heavyRequest(), options: { limits } })).resolves.toMatchObject({ status: 504, code: 'flow_cpu_exceeded' });
  });

  it('keeps the deadline while iterations wait for a slice', async () => {
    const never = { turn: () => new Promise<number>(() => undefined), sliceEnded: () => undefined };
    await expect(runFlow(heavy(4), { ...heavyRequest(), options: { scheduler: never, timeoutMs: 50 } })).resolves.toMatchObject({ status: 504, code: 'flow_timeout' });
  });
});
