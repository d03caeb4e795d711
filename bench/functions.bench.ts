/**
 * What a Call Function costs: three text blocks (trim, uppercase, a template) written inline in
 * an endpoint's flow, against the same three blocks in a function that the endpoint calls with
 * one input and whose Return gives the value back. Both run through `executeFlow` in this
 * process; the difference of their times per execution is the call's own cost (a run of the
 * function started and ended, its input checked, the value returned). Target: ≤ 2 µs.
 * Rates are per second of this process's CPU time (see cpu-rate.ts).
 */
import { compileFlow, executeFlow, prepareFlow, type FlowRequest, type FunctionInput, type PreparedFlow } from '@flowgate/flow-engine';
import { best } from './cpu-rate';

const position = { x: 0, y: 0 };
type Block = { id: string; type: string; config: Record<string, unknown> };
const chain = (blocks: Block[]) => ({
  nodes: [{ id: 'start', type: 'start', position }, ...blocks.map((block) => ({ ...block, position }))],
  edges: blocks.map((block, index) => ({ id: `e${index}`, source: index === 0 ? 'start' : blocks[index - 1]!.id, target: block.id })),
});

/** The work, reading its text from `source`. */
const work = (source: string): Block[] => [
  { id: 'trim', type: 'manipulate_text', config: { input: source, operation: 'trim_spaces', ref: 'compact' } },
  { id: 'upper', type: 'manipulate_text', config: { input: '{result.compact}', operation: 'uppercase', ref: 'upper' } },
  { id: 'label', type: 'set_variable', config: { name: 'label', value: 'Order {result.upper}' } },
];

const settings = { name: 'Orders', method: 'GET' as const, path: '/orders', auth: 'none' as const, query_params: [{ key: 'order', default: 'none' }] };
const request: FlowRequest = { method: 'GET', path: '/orders', query: new URLSearchParams('order=ord -%201234%20x'), body: undefined, headers: {} };
const INPUTS: FunctionInput[] = [{ name: 'order', type: 'string', required: true }];

function prepared(result: ReturnType<typeof compileFlow>): PreparedFlow {
  if (!result.ok) throw new Error(`does not compile: ${JSON.stringify(result.diagnostics)}`);
  return prepareFlow(JSON.parse(JSON.stringify(result.compiled)));
}

async function main(): Promise<void> {
  const inline = prepared(compileFlow({ flow: chain([...work('{params.order}'), { id: 'respond', type: 'respond', config: { body: '{local.label}' } }]), settings }));
  const fn = prepared(compileFlow({ flow: chain([...work('{input.order}'), { id: 'return', type: 'return_value', config: { value: '{local.label}' } }]), inputs: INPUTS }));
  const caller = prepared(
    compileFlow({
      flow: chain([
        { id: 'call', type: 'call_function', config: { function: 'label', args: { order: '{params.order}' }, ref: 'label' } },
        { id: 'respond', type: 'respond', config: { body: '{result.label}' } },
      ]),
      settings,
    }),
  );
  const ports = { functions: new Map([['label', fn]]) };
  const options = { timeoutMs: 5000 };
  const [a, b] = [await executeFlow(inline, request, ports, options), await executeFlow(caller, request, ports, options)];
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`inline and called results differ: ${JSON.stringify(a)} ${JSON.stringify(b)}`);

  const inlined = await best(() => executeFlow(inline, request, ports, options));
  const called = await best(() => executeFlow(caller, request, ports, options));
  const microsOf = (perSecond: number) => 1e6 / perSecond;
  const callCostUs = microsOf(called.perCpuSecond) - microsOf(inlined.perCpuSecond);
  console.log('functions: 3 text blocks inline vs. the same blocks in a function called by Call Function');
  console.log(`  inline                      ${microsOf(inlined.perCpuSecond).toFixed(2).padStart(7)} µs per execution (CPU)`);
  console.log(`  through Call Function       ${microsOf(called.perCpuSecond).toFixed(2).padStart(7)} µs per execution (CPU)`);
  console.log(`  cost of the call            ${callCostUs.toFixed(2).padStart(7)} µs   target ≤ 2 µs: ${callCostUs <= 2 ? 'met' : 'MISSED'}`);
  console.log(
    JSON.stringify({
      bench: 'functions',
      inline_us: Number(microsOf(inlined.perCpuSecond).toFixed(3)),
      called_us: Number(microsOf(called.perCpuSecond).toFixed(3)),
      call_cost_us: Number(callCostUs.toFixed(3)),
      target_us: 2,
      met: callCostUs <= 2,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
