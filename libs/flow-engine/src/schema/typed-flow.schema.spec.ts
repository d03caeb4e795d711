import { z } from 'zod';
import { blockCatalogue } from '../blocks/catalogue';
import { validateFlow } from '../compile/compile-flow';
import { typedFlowDocumentSchema } from './typed-flow.schema';

type JsonSchema = { oneOf?: JsonSchema[]; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema>; required?: string[]; const?: unknown; items?: JsonSchema };

const variantsOf = (schema: JsonSchema): JsonSchema[] => {
  const items = schema.properties?.nodes?.items ?? {};
  return items.oneOf ?? items.anyOf ?? [];
};

describe('typedFlowDocumentSchema', () => {
  it('gives every block usable in an endpoint a variant whose config is the block’s catalogue schema', () => {
    const json = z.toJSONSchema(typedFlowDocumentSchema('endpoint'), { io: 'input' }) as JsonSchema;
    const byType = new Map(variantsOf(json).map((variant) => [variant.properties?.type?.const, variant]));
    const endpointBlocks = blockCatalogue.filter((entry) => !entry.usableIn || entry.usableIn.includes('endpoint'));
    expect([...byType.keys()].sort()).toEqual(endpointBlocks.map((entry) => entry.type).sort());
    for (const entry of endpointBlocks) {
      const expected = z.toJSONSchema(entry.configSchema, { io: 'input' }) as JsonSchema;
      expect(byType.get(entry.type)?.properties?.config?.required ?? []).toEqual(expected.required ?? []);
    }
    expect(byType.has('return_value')).toBe(false);
  });

  it('offers Return (not Respond) in a function', () => {
    const json = z.toJSONSchema(typedFlowDocumentSchema('function'), { io: 'input' }) as JsonSchema;
    const types = variantsOf(json).map((variant) => variant.properties?.type?.const);
    expect(types).toContain('return_value');
    expect(types).not.toContain('respond');
  });

  it('accepts a complete flow that validation accepts, and refuses a config the block refuses', () => {
    const flow = {
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, config: {} },
        { id: 'r1', type: 'respond', position: { x: 0, y: 160 }, config: { status: 200, body: { hello: '{params.name}' } } },
      ],
      edges: [{ id: 'e1', source: 'start', target: 'r1', sourceHandle: null }],
    };
    expect(typedFlowDocumentSchema('endpoint').safeParse(flow).success).toBe(true);
    const settings = { name: 'Hello', method: 'GET' as const, path: '/hello', auth: 'none' as const, query_params: [{ key: 'name', default: null }] };
    expect(validateFlow({ flow, settings }).filter((d) => d.severity === 'error')).toEqual([]);
    const wrong = { ...flow, nodes: [flow.nodes[0], { ...flow.nodes[1], config: { status: 99 } }] };
    expect(typedFlowDocumentSchema('endpoint').safeParse(wrong).success).toBe(false);
  });
});
