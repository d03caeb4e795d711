import { compileFlow } from '../compile/compile-flow';
import type { CompiledFlow } from '../compile/compiled-flow';
import { graphFlow, settings } from '../testing/flow-fixtures';
import { describeApi } from './describe-api';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function operationOf(flow: ReturnType<typeof graphFlow>): Json {
  const endpoint = settings({ name: 'Names', method: 'POST', path: '/names' });
  const result = compileFlow({ flow, settings: endpoint });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  const doc = describeApi({ title: 'T', version: '1', baseUrl: 'https://t.example.com', requireAuth: false, endpoints: [{ settings: endpoint, compiled: result.compiled as CompiledFlow }] });
  return doc.paths['/names']!.post as Json;
}

describe('describeApi with For Each', () => {
  it('types the collected list as a list of the collect value, the count without collect, and adds 422 iteration_limit', () => {
    const op = operationOf(
      graphFlow(
        [
          { id: 'f', type: 'for_each', config: { list: '{body.people}', collect: { upper: '{result.up}', at: '{local.item_index}' }, ref: 'names' } },
          { id: 'u', type: 'manipulate_text', config: { input: '{local.item.name}', operation: 'uppercase', ref: 'up' } },
          { id: 'c', type: 'for_each', config: { list: '{local.names}', ref: 'count' } },
          { id: 'r', type: 'respond', config: { body: { names: '{local.names}', count: '{count}' } } },
        ],
        ['start>f', 'f:each>u', 'f:done>c', 'c:done>r'],
      ),
    );
    const body = op.responses['200'].content['application/json'].schema;
    expect(body.properties.names).toEqual({ type: 'array', items: { type: 'object', properties: { upper: { type: 'string' }, at: { type: 'integer', minimum: 0 } }, required: ['upper', 'at'] } });
    expect(body.properties.count).toEqual({ type: 'integer', minimum: 0 });
    expect(op.responses['422'].content['application/json'].schema.properties.code).toEqual({ type: 'string', const: 'iteration_limit' });
  });

  it('does not count a body path that ends as the flow ending without an answer', () => {
    const op = operationOf(
      graphFlow(
        [
          { id: 'f', type: 'for_each', config: { list: '{body.people}', ref: 'n' } },
          { id: 'u', type: 'manipulate_text', config: { input: '{local.item}', operation: 'uppercase', ref: 'up' } },
          { id: 'r', type: 'respond', config: { status: 201, body: { n: '{local.n}' } } },
        ],
        ['start>f', 'f:each>u', 'f:done>r'],
      ),
    );
    expect(Object.keys(op.responses)).not.toContain('200');
    expect(op.responses['201']).toBeDefined();
  });
});
