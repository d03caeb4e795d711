/**
 * The cost of a loop iteration: a For Each over 1,000 items with one Manipulate Text per item
 * (collected), against the same work as 1,000 separate engine runs of a one-block flow, in one
 * process. Printed per item, in µs of this process's CPU time (so a busy machine does not
 * distort it), and as a ratio: an iteration should cost no more than a run of its own.
 */
import { compileFlow, executeFlow, prepareFlow, type FlowRequest } from '@flowgate/flow-engine';
import { best } from './cpu-rate';

const ITEMS = 1_000;
const position = { x: 0, y: 0 };
const settings = { name: 'Items', method: 'POST' as const, path: '/items', auth: 'none' as const, query_params: [] };

const loopFlow = {
  nodes: [
    { id: 'start', type: 'start', position },
    { id: 'f', type: 'for_each', position, config: { list: '{body.items}', collect: '{result.up}', ref: 'out' } },
    { id: 'u', type: 'manipulate_text', position, config: { input: '{local.item}', operation: 'uppercase', ref: 'up' } },
    { id: 'r', type: 'respond', position, config: { body: { out: '{local.out}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'f' },
    { id: 'e2', source: 'f', target: 'u', sourceHandle: 'each' },
    { id: 'e3', source: 'f', target: 'r', sourceHandle: 'done' },
  ],
};

const oneItemFlow = {
  nodes: [
    { id: 'start', type: 'start', position },
    { id: 'u', type: 'manipulate_text', position, config: { input: '{body.item}', operation: 'uppercase', ref: 'up' } },
    { id: 'r', type: 'respond', position, config: { body: { out: '{result.up}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'u' },
    { id: 'e2', source: 'u', target: 'r' },
  ],
};

function prepared(flow: unknown) {
  const compiled = compileFlow({ flow, settings });
  if (!compiled.ok) throw new Error(`bench flow does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  return prepareFlow(JSON.parse(JSON.stringify(compiled.compiled)));
}

const asRequest = (body: unknown): FlowRequest => ({ method: 'POST', path: '/items', query: new URLSearchParams(), body, headers: {} });

async function main(): Promise<void> {
  const items = Array.from({ length: ITEMS }, (_, index) => `item number ${index}`);
  const loop = prepared(loopFlow);
  const single = prepared(oneItemFlow);
  const loopRequest = asRequest({ items });
  const singleRequests = items.map((item) => asRequest({ item }));
  const options = { timeoutMs: 10_000 };

  const looped = await executeFlow(loop, loopRequest, {}, options);
  const separately = await Promise.all(singleRequests.map((request) => executeFlow(single, request, {}, options)));
  const expected = separately.map((result) => (result.type === 'response' ? (result.body as { out: string }).out : null));
  if (looped.type !== 'response' || JSON.stringify((looped.body as { out: unknown }).out) !== JSON.stringify(expected)) {
    throw new Error(`the loop and the separate runs differ: ${JSON.stringify(looped).slice(0, 300)}`);
  }

  // One unit of work = 1,000 items, either way.
  const loopRate = await best(() => executeFlow(loop, loopRequest, {}, options), 5);
  const runsRate = await best(async () => {
    for (const request of singleRequests) await executeFlow(single, request, {}, options);
  }, 5);
  const perItem = (rate: { perCpuSecond: number }) => 1e6 / (rate.perCpuSecond * ITEMS);
  const loopUs = perItem(loopRate);
  const runsUs = perItem(runsRate);
  const ratio = loopUs / runsUs;
  console.log(`for-each: ${ITEMS.toLocaleString('en-US')} items, one Manipulate Text (uppercase) each, collected`);
  console.log(`  For Each (one run, ${ITEMS} iterations)        ${loopUs.toFixed(3).padStart(8)} µs CPU per item`);
  console.log(`  ${ITEMS} separate runs of a one-block flow     ${runsUs.toFixed(3).padStart(8)} µs CPU per item`);
  console.log(`  ratio loop / separate runs                   ${ratio.toFixed(2).padStart(8)}×   target ≤ 1: ${ratio <= 1 ? 'met' : 'MISSED'}`);
  console.log(
    JSON.stringify({
      bench: 'for-each',
      items: ITEMS,
      loop_us_per_item: Number(loopUs.toFixed(3)),
      separate_runs_us_per_item: Number(runsUs.toFixed(3)),
      ratio: Number(ratio.toFixed(2)),
      target_ratio: 1,
      met: ratio <= 1,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
