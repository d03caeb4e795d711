import { compileFlow } from '../compile/compile-flow';
import type { CompiledFlow } from '../compile/compiled-flow';
import { linearFlow, settings, type BlockSpec } from '../testing/flow-fixtures';
import { describeApi } from './describe-api';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function compiled(result: ReturnType<typeof compileFlow>): CompiledFlow {
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.compiled as CompiledFlow;
}

/** The 200 answer's schema of GET /price, whose flow calls the function `price` (of `functionBlocks`). */
function answerSchema(functionBlocks: BlockSpec[] | null): Json {
  const functions = new Map<string, CompiledFlow>();
  if (functionBlocks !== null) functions.set('price', compiled(compileFlow({ flow: linearFlow(functionBlocks), inputs: [{ name: 'amount', type: 'number', required: true }] })));
  const endpoint = settings({ name: 'Price', method: 'GET', path: '/price' });
  const flow = linearFlow([
    { type: 'call_function', config: { function: 'price', args: { amount: 2 }, ref: 'price' } },
    { type: 'respond', config: { body: { price: '{result.price}', label: '{result.price.label}' } } },
  ]);
  const doc = describeApi({ title: 'T', version: '1', baseUrl: 'https://t.example.com', requireAuth: false, endpoints: [{ settings: endpoint, compiled: compiled(compileFlow({ flow, settings: endpoint })) }], functions });
  return (doc.paths['/price']!.get as Json).responses['200'].content['application/json'].schema;
}

describe('describeApi with Call Function', () => {
  it("types Call Function's result as what the live function's Return gives", () => {
    const schema = answerSchema([{ type: 'return_value', config: { value: { label: 'price {input.amount}', currency: 'EUR' } } }]);
    expect(schema.properties.label).toEqual({ type: 'string' });
    expect(schema.properties.price).toMatchObject({ type: 'object', properties: { label: { type: 'string' }, currency: { const: 'EUR' } } });
  });

  it('describes the result as any value when the function is not live', () => {
    expect(answerSchema(null).properties.price).toEqual({});
  });
});
