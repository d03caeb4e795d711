/**
 * Flow engine throughput: the reference 6-block flow (Set Variable, two Manipulate Text, Match
 * Regex, Condition, Respond) through `executeFlow`, against a hand-written function doing the
 * same work, in one process. Targets: ≥ 200,000 executions/s on one core, within 3× of the
 * hand-written function. Rates are per second of this process's CPU time, so a busy machine
 * does not distort them; wall-clock rates are printed beside them.
 *
 * The hand-written function matches with RE2JS too: the engine must run user patterns in linear
 * time, and a native RegExp would be doing different (unsafe) work. Its native-RegExp twin is
 * printed for reference.
 *
 * Also the cost of a tracer (Workshop test runs): the same flow with a tracer that records each
 * block's timing and stored value, beside the untraced figure (live requests pass none and pay
 * one null check per block).
 */
import { RE2JS } from 're2js';
import { compileFlow, executeFlow, prepareFlow, type FlowRequest, type FlowResult, type FlowTracer } from '@flowgate/flow-engine';
import { best } from './cpu-rate';

const PATTERN = '^(?<prefix>[A-Z]+)-(?<number>\\d+)';

const referenceFlow = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'n1', type: 'set_variable', position: { x: 0, y: 100 }, config: { name: 'order', value: '{params.order}' } },
    { id: 'n2', type: 'manipulate_text', position: { x: 0, y: 200 }, config: { input: '{local.order}', operation: 'trim_spaces', ref: 'compact' } },
    { id: 'n3', type: 'manipulate_text', position: { x: 0, y: 300 }, config: { input: '{result.compact}', operation: 'uppercase', ref: 'upper' } },
    { id: 'n4', type: 'match_regex', position: { x: 0, y: 400 }, config: { input: '{result.upper}', pattern: PATTERN, ref: 'm' } },
    { id: 'n5', type: 'condition', position: { x: 0, y: 500 }, config: { left: '{result.m.isMatch}', operator: 'eq', right: true } },
    {
      id: 'n6',
      type: 'respond',
      position: { x: 0, y: 600 },
      config: { status: 200, body: { order: '{result.upper}', prefix: '{result.m.prefix}', number: '{result.m.number}', note: 'Order {result.upper} accepted' } },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'n2' },
    { id: 'e3', source: 'n2', target: 'n3' },
    { id: 'e4', source: 'n3', target: 'n4' },
    { id: 'e5', source: 'n4', target: 'n5' },
    { id: 'e6', source: 'n5', target: 'n6', sourceHandle: 'true' },
  ],
};

const settings = { name: 'Orders', method: 'GET' as const, path: '/orders', auth: 'none' as const, query_params: [{ key: 'order', default: 'none' }] };
const request: FlowRequest = { method: 'GET', path: '/orders', query: new URLSearchParams('order=ord -%201234%20x'), body: undefined, headers: {} };

function handWritten(query: URLSearchParams, match: (text: string) => Record<string, unknown>): FlowResult {
  const order = query.get('order') ?? 'none';
  const compact = order.replace(/\s+/g, '');
  const upper = compact.toUpperCase();
  const m = match(upper);
  if (m.isMatch === true) {
    return { type: 'response', status: 200, body: { order: upper, prefix: m.prefix, number: m.number, note: `Order ${upper} accepted` } };
  }
  return { type: 'response', status: 200, body: {} };
}

const re2 = RE2JS.compile(PATTERN).re2();
function matchWithRe2(text: string): Record<string, unknown> {
  const found = re2.findAllSubmatch(text, -1) as Array<Array<string | null>> | null;
  if (found === null) return { prefix: null, number: null, matches: [], captures: [], isMatch: false };
  return {
    prefix: found[0][1],
    number: found[0][2],
    matches: found.map((groups) => groups[0]),
    captures: found.flatMap((groups) => groups.slice(1)),
    isMatch: true,
  };
}

const native = new RegExp(PATTERN, 'g');
function matchWithNative(text: string): Record<string, unknown> {
  const all = [...text.matchAll(native)];
  const first = all[0];
  return {
    prefix: first?.groups?.prefix ?? null,
    number: first?.groups?.number ?? null,
    matches: all.map((m) => m[0]),
    captures: all.flatMap((m) => [m[1] ?? null, m[2] ?? null]),
    isMatch: all.length > 0,
  };
}

/** Records what a test run's trace needs (block, times, stored value), reusing one array per run. */
function recordingTracer(): FlowTracer & { reset(): void } {
  const entries: Array<{ id: string; startedAt: number; endedAt: number; stored: unknown }> = [];
  return {
    reset: () => void (entries.length = 0),
    blockStarted: (block) => void entries.push({ id: block.id, startedAt: performance.now(), endedAt: 0, stored: undefined }),
    blockEnded: (_block, outcome) => {
      const entry = entries[entries.length - 1]!;
      entry.endedAt = performance.now();
      entry.stored = outcome.stored;
    },
    blockFailed: () => undefined,
  };
}

async function main(): Promise<void> {
  const compiled = compileFlow({ flow: referenceFlow, settings });
  if (!compiled.ok) throw new Error(`reference flow does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  const prepared = prepareFlow(JSON.parse(JSON.stringify(compiled.compiled)));
  const ports = {};
  const options = { timeoutMs: 5000 };

  const engineResult = await executeFlow(prepared, request, ports, options);
  const expected = handWritten(request.query, matchWithRe2);
  if (JSON.stringify(engineResult) !== JSON.stringify(expected)) {
    throw new Error(`engine and hand-written results differ:\n${JSON.stringify(engineResult)}\n${JSON.stringify(expected)}`);
  }

  const engine = await best(() => executeFlow(prepared, request, ports, options));
  const hand = await best(() => handWritten(request.query, matchWithRe2));
  const handNative = await best(() => handWritten(request.query, matchWithNative));
  const tracer = recordingTracer();
  const tracedOptions = { timeoutMs: 5000, tracer };
  const traced = await best(() => {
    tracer.reset();
    return executeFlow(prepared, request, ports, tracedOptions);
  });
  const tracedRatio = engine.perCpuSecond / traced.perCpuSecond;
  const ratio = hand.perCpuSecond / engine.perCpuSecond;
  const format = (perSecond: number) => Math.round(perSecond).toLocaleString('en-US').padStart(9);
  const row = (label: string, figures: { perCpuSecond: number; perWallSecond: number }) =>
    `  ${label.padEnd(44)}${format(figures.perCpuSecond)} /CPU-s  (${format(figures.perWallSecond).trim()} /wall-s)`;

  console.log('flow-engine: reference 6-block flow (set_variable, manipulate_text ×2, match_regex, condition, respond)');
  console.log('  executions per second of CPU time on one core (wall-clock rate in brackets)');
  console.log(`${row('engine (executeFlow, 5 s deadline)', engine)}   target ≥ 200,000: ${engine.perCpuSecond >= 200_000 ? 'met' : 'MISSED'}`);
  console.log(row('hand-written JS (RE2JS regex)', hand));
  console.log(`  ${'ratio hand-written / engine'.padEnd(44)}${ratio.toFixed(2).padStart(9)}×         target ≤ 3×: ${ratio <= 3 ? 'met' : 'MISSED'}`);
  console.log(row('hand-written JS (native RegExp; reference)', handNative));
  console.log(row('engine with a recording tracer (test runs)', traced));
  console.log(`  ${'ratio untraced / traced'.padEnd(44)}${tracedRatio.toFixed(2).padStart(9)}×         (live requests run untraced)`);
  console.log(
    JSON.stringify({
      bench: 'flow-engine',
      engine_per_cpu_s: Math.round(engine.perCpuSecond),
      handwritten_per_cpu_s: Math.round(hand.perCpuSecond),
      ratio: Number(ratio.toFixed(2)),
      handwritten_native_regexp_per_cpu_s: Math.round(handNative.perCpuSecond),
      engine_per_wall_s: Math.round(engine.perWallSecond),
      traced_per_cpu_s: Math.round(traced.perCpuSecond),
      untraced_over_traced: Number(tracedRatio.toFixed(2)),
      target_per_s: 200_000,
      target_ratio: 3,
      met: engine.perCpuSecond >= 200_000 && ratio <= 3,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
