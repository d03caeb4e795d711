import type { CodeOutcome, CodePort } from '../ports';
import { compileFlow } from '../compile/compile-flow';
import { DEFAULT_FLOW_LIMITS } from '../runtime/flow-limits';
import type { FlowTracer, TracedBlock } from '../runtime/flow-tracer';
import type { FunctionInput } from '../schema/function-inputs.schema';
import { graphFlow, request, respondBody, runFlow } from '../testing/flow-fixtures';
import { prepareFlow, type PreparedFlow } from './prepare-flow';

/** Loops and error handles with Run Code and Call Function: one budget, one trace. */

type Spec = { id: string; type: string; config?: Record<string, never> };
const block = (id: string, type: string, config: Record<string, unknown>): Spec => ({ id, type, config: config as Record<string, never> });
const respond = (body: unknown, id = 'r') => block(id, 'respond', { body });
const items = (list: unknown) => request({ body: { items: list } });

function prepareFunction(blocks: Spec[], connections: string[], inputs: FunctionInput[]): PreparedFlow {
  const result = compileFlow({ flow: graphFlow(blocks, connections), inputs, context: {} });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return prepareFlow(JSON.parse(JSON.stringify(result.compiled)));
}

/** A function that loops over its input `list` and returns how many iterations it ran. */
const countingFunction = () =>
  prepareFunction(
    [block('f', 'for_each', { list: '{input.list}', ref: 'n' }), block('v', 'set_variable', { name: 'x', value: '{local.item}' }), block('ret', 'return_value', { value: '{local.n}' })],
    ['start>f', 'f:each>v', 'f:done>ret'],
    [{ name: 'list', type: 'list', required: true }],
  );

const failingFunction = () =>
  prepareFunction(
    [block('d', 'decode_text', { input: 'not base64 !!', encoding: 'base64', ref: 'x' }), block('ret', 'return_value', { value: 1 })],
    ['start>d', 'd>ret'],
    [],
  );

const codePort = (outcome: CodeOutcome): CodePort => ({
  runNow: () => outcome,
  run: async () => outcome,
});

describe('loops with Call Function and Run Code', () => {
  it('counts a called function’s iterations with its caller’s against FLOW_MAX_ITERATIONS', async () => {
    const flow = graphFlow(
      [block('each', 'for_each', { list: '{body.items}', collect: '{result.n}', ref: 'out' }), block('call', 'call_function', { function: 'count', args: { list: '{local.item}' }, ref: 'n' }), respond({ out: '{local.out}' })],
      ['start>each', 'each:each>call', 'each:done>r'],
    );
    const functions = new Map([['count', countingFunction()]]);
    await expect(respondBody(flow, { request: items([[1, 2], [3]]), ports: { functions } })).resolves.toEqual({ out: [2, 1] });
    // 2 outer + 3 inner iterations = 5 > 4: the shared budget stops the run, whatever level it is at.
    const limits = { ...DEFAULT_FLOW_LIMITS, maxIterations: 4 };
    await expect(runFlow(flow, { request: items([[1, 2], [3]]), ports: { functions }, options: { limits } })).resolves.toMatchObject({ status: 422, code: 'iteration_limit' });
  });

  it('takes a Call Function’s error handle for the function’s failure, but never for a shared budget', async () => {
    const caught = graphFlow(
      [block('call', 'call_function', { function: 'f', args: {}, ref: 'res' }), respond({ ok: true }), respond({ error: '{res.error.code}' }, 'failed')],
      ['start>call', 'call>r', 'call:error>failed'],
    );
    await expect(respondBody(caught, { ports: { functions: new Map([['f', failingFunction()]]) } })).resolves.toEqual({ error: 'flow_error' });
    const limits = { ...DEFAULT_FLOW_LIMITS, maxIterations: 1 };
    const looping = graphFlow(
      [block('call', 'call_function', { function: 'count', args: { list: [1, 2] }, ref: 'res' }), respond({ ok: true }), respond({ caught: true }, 'failed')],
      ['start>call', 'call>r', 'call:error>failed'],
    );
    await expect(runFlow(looping, { ports: { functions: new Map([['count', countingFunction()]]) }, options: { limits } })).resolves.toMatchObject({ status: 422, code: 'iteration_limit' });
  });

  it('takes a Run Code’s error handle with the code’s failure; uncaught, a timeout answers 504 code_timeout', async () => {
    const code = block('code', 'run_code', { code: 'while (true) {}', inputs: [], ref: 'c', timeout_ms: 10 });
    const timedOut = codePort({ ok: false, code: 'code_timeout', message: 'too long', console: [] });
    const caught = graphFlow([code, respond({ ok: true }), respond({ error: '{c.error}' }, 'failed')], ['start>code', 'code>r', 'code:error>failed']);
    await expect(respondBody(caught, { ports: { code: timedOut } })).resolves.toEqual({ error: { message: 'too long', code: 'code_timeout', status: 504 } });
    const uncaught = graphFlow([code, respond({ ok: true })], ['start>code', 'code>r']);
    await expect(runFlow(uncaught, { ports: { code: timedOut } })).resolves.toMatchObject({ status: 504, code: 'code_timeout', node_id: 'code' });
  });

  it('traces a call in a loop body under its iteration, and a Run Code’s console on its iteration’s block', async () => {
    const flow = graphFlow(
      [
        block('each', 'for_each', { list: '{body.items}', ref: 'out' }),
        block('code', 'run_code', { code: 'console.log(input.i)', inputs: [{ name: 'i', value: '{local.item}' }], ref: 'c' }),
        block('call', 'call_function', { function: 'count', args: { list: [1] }, ref: 'n' }),
        respond({ out: '{local.out}' }),
      ],
      ['start>each', 'each:each>code', 'code>call', 'each:done>r'],
    );
    const events: string[] = [];
    const tracer = (prefix: string): FlowTracer => ({
      blockStarted: (b: TracedBlock) => events.push(`${prefix}start ${b.id}${b.iteration === undefined ? '' : `#${b.iteration}`}`),
      blockEnded: () => undefined,
      blockFailed: () => undefined,
      blockLogged: (lines, b) => events.push(`${prefix}log ${b?.id}#${b?.iteration}: ${lines.map((line) => line.text).join()}`),
      nested: (b: TracedBlock) => tracer(`${prefix}${b.id}#${b.iteration} > `),
    });
    const port: CodePort = { runNow: (task) => ({ ok: true, result: null, console: [{ level: 'log', text: String(task.input.i) }] }), run: async () => ({ ok: true, result: null, console: [] }) };
    await respondBody(flow, { request: items(['a', 'b']), ports: { code: port, functions: new Map([['count', countingFunction()]]) }, options: { tracer: tracer('') } });
    expect(events).toEqual([
      'start each',
      'start code#0',
      'log code#0: a',
      'start call#0',
      'call#0 > start f',
      'call#0 > start v#0',
      'call#0 > start ret',
      'start code#1',
      'log code#1: b',
      'start call#1',
      'call#1 > start f',
      'call#1 > start v#0',
      'call#1 > start ret',
      'start r',
    ]);
  });
});
