import { compileFlow } from '../../compile/compile-flow';
import { executeFlow } from '../../execute/execute-flow';
import { prepareFlow, type PreparedFlow } from '../../execute/prepare-flow';
import type { JsonValue } from '../../json';
import type { FlowTracer, TracedBlock } from '../../runtime/flow-tracer';
import { DEFAULT_FLOW_LIMITS } from '../../runtime/flow-limits';
import type { FunctionInput } from '../../schema/function-inputs.schema';
import { codes, diagnostics, linearFlow, request, respondBody, runFlow, settings, type BlockSpec } from '../../testing/flow-fixtures';

const PRICE_INPUTS: FunctionInput[] = [
  { name: 'amount', type: 'number', required: true },
  { name: 'currency', type: 'string', required: false, default: 'EUR' },
];

/** A function's flow compiled as the control plane does, through JSON, prepared. */
function prepareFunction(blocks: BlockSpec[], inputs: FunctionInput[] = PRICE_INPUTS, context = {}): PreparedFlow {
  const result = compileFlow({ flow: linearFlow(blocks), inputs, context });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return prepareFlow(JSON.parse(JSON.stringify(result.compiled)));
}

const priceFunction = () =>
  prepareFunction([
    { type: 'set_variable', config: { name: 'label', value: '{input.amount} {input.currency}' } },
    { type: 'return_value', config: { value: { label: '{local.label}', amount: '{input.amount}' } } },
  ]);

const callPrice = (args: Record<string, JsonValue>): BlockSpec => ({ id: 'call', type: 'call_function', config: { function: 'price', args, ref: 'price' } });

describe('Call Function and Return', () => {
  it('runs the function with its inputs (defaults filled in) and stores what Return gave as {result.REF}', async () => {
    const functions = new Map([['price', priceFunction()]]);
    const body = await respondBody(linearFlow([callPrice({ amount: '{body.n}' }), { type: 'respond', config: { body: '{result.price}' } }]), {
      request: request({ body: { n: 12 } }),
      ports: { functions },
    });
    expect(body).toEqual({ label: '12 EUR', amount: 12 });
  });

  it('fails the call with 422 invalid_argument when a value does not fit the input type', async () => {
    const functions = new Map([['price', priceFunction()]]);
    const result = await runFlow(linearFlow([callPrice({ amount: '{body.n}' }), { type: 'respond', config: { body: '{result.price}' } }]), {
      request: request({ body: { n: 'twelve' } }),
      ports: { functions },
    });
    expect(result).toMatchObject({ type: 'error', status: 422, code: 'invalid_argument', node_id: 'call' });
    expect(result.type === 'error' && result.message).toMatch(/Call Function \(call\): the input amount must be a number/);
  });

  it("passes a function's failure to its caller with the same code, naming the call", async () => {
    const failing = prepareFunction([
      { type: 'decode_text', config: { input: 'not base64 !!', encoding: 'base64', ref: 'x' } },
      { type: 'return_value', config: { value: 1 } },
    ]);
    const result = await runFlow(linearFlow([callPrice({ amount: 1 }), { type: 'respond', config: { body: 1 } }]), { ports: { functions: new Map([['price', failing]]) } });
    expect(result).toMatchObject({ type: 'error', code: 'flow_error', node_id: 'call' });
    expect(result.type === 'error' && result.message).toMatch(/^Call Function \(call\): Decode Text/);
  });

  it('stops calls nested deeper than FLOW_MAX_CALL_DEPTH', async () => {
    // A draft may call itself (Deploy refuses the cycle); the depth limit ends it.
    const functions = new Map<string, PreparedFlow>();
    functions.set('price', prepareFunction([callPrice({ amount: 1 }), { type: 'return_value', config: { value: '{result.price}' } }]));
    const limits = { ...DEFAULT_FLOW_LIMITS, maxCallDepth: 3 };
    const result = await runFlow(linearFlow([callPrice({ amount: 1 }), { type: 'respond', config: { body: 1 } }]), { ports: { functions }, options: { limits } });
    expect(result.type === 'error' && result.message).toMatch(/calls nest deeper than 3 functions \(FLOW_MAX_CALL_DEPTH\)/);
  });

  it('fails naming the function when it is not deployed', async () => {
    const result = await runFlow(linearFlow([callPrice({ amount: 1 }), { type: 'respond', config: { body: 1 } }]), { ports: { functions: new Map() } });
    expect(result).toMatchObject({ type: 'error', code: 'flow_error' });
    expect(result.type === 'error' && result.message).toMatch(/the function price is not deployed/);
  });

  it('nests the traces of the called blocks under the Call Function', async () => {
    const log: string[] = [];
    const tracer = (depth: number): FlowTracer => ({
      blockStarted: (block: TracedBlock) => log.push(`${'  '.repeat(depth)}${block.type}`),
      blockEnded: () => undefined,
      blockFailed: () => undefined,
      nested: () => tracer(depth + 1),
    });
    const compiled = compileFlow({ flow: linearFlow([callPrice({ amount: 2 }), { type: 'respond', config: { body: '{result.price.label}' } }]), settings: settings() });
    if (!compiled.ok) throw new Error('does not compile');
    const result = await executeFlow(prepareFlow(compiled.compiled), request(), { functions: new Map([['price', priceFunction()]]) }, { tracer: tracer(0) });
    expect(result).toEqual({ type: 'response', status: 200, body: '2 EUR' });
    expect(log).toEqual(['call_function', '  set_variable', '  return_value', 'respond']);
  });
});

describe('validation of functions and calls', () => {
  const functionDiagnostics = (blocks: BlockSpec[], inputs = PRICE_INPUTS) => compileFlow({ flow: linearFlow(blocks), inputs });

  it('refuses a path without Return, Respond and Return Error, and request references in a function', () => {
    const result = functionDiagnostics([
      { type: 'set_variable', config: { name: 'a', value: '{body.x} {params.q} {input.nope}' } },
      { type: 'respond', config: { body: 1 } },
    ]);
    expect(result.ok).toBe(false);
    expect(codes(result.diagnostics)).toEqual(expect.arrayContaining(['no_request_in_function', 'unknown_input', 'not_in_function']));
    const open = functionDiagnostics([{ type: 'set_variable', config: { name: 'a', value: 1 } }]);
    expect(codes(open.diagnostics)).toContain('no_return');
  });

  it("names a function's input problems at their fields, as Save refuses them", () => {
    const result = functionDiagnostics([{ type: 'return_value', config: { value: 1 } }], [
      { name: 'two words', type: 'string', required: false },
      { name: 'amount', type: 'number', required: false, default: 'ten' },
    ]);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(({ field, message }) => ({ field, message }))).toEqual([
      { field: 'inputs.0.name', message: expect.stringMatching(/^Input 1 \(name\): /) },
      { field: 'inputs.1.default', message: 'Input 2 (default): must be a number.' },
    ]);
  });

  it('refuses Return and {input.…} in an endpoint', () => {
    expect(codes(diagnostics(linearFlow([{ type: 'return_value', config: { value: '{input.a}' } }])))).toEqual(
      expect.arrayContaining(['not_in_endpoint', 'input_outside_function']),
    );
  });

  const functions = [{ id: 'price', name: 'Price', inputs: PRICE_INPUTS, live: false }];
  it('checks calls against the project: not live, missing, mistyped and unknown arguments', () => {
    const found = (args: Record<string, JsonValue>, versions?: 'draft') =>
      codes(diagnostics(linearFlow([callPrice(args), { type: 'respond', config: { body: 1 } }]), { context: { functions, function_versions: versions } }));
    expect(found({ amount: 1 })).toEqual(['function_not_live']);
    expect(found({ amount: 1 }, 'draft')).toEqual([]);
    expect(found({}, 'draft')).toEqual(['invalid_argument']);
    expect(found({ amount: 'x' }, 'draft')).toEqual(['invalid_argument']);
    expect(found({ amount: 1, colour: 'red' }, 'draft')).toEqual(['invalid_argument']);
    expect(found({ amount: '{body.n}' }, 'draft')).toEqual([]);
    const gone = codes(diagnostics(linearFlow([{ ...callPrice({}), config: { function: 'gone', args: {}, ref: 'x' } }, { type: 'respond', config: { body: 1 } }]), { context: { functions } }));
    expect(gone).toEqual(['unknown_function']);
  });
});
