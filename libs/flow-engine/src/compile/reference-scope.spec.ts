import { validateFlow } from './compile-flow';
import { referencesAt } from './reference-scope';
import { graphFlow, linearFlow, settings } from '../testing/flow-fixtures';
import type { FlowDocument } from '../schema/flow-document.schema';
import type { EndpointSettings } from '../schema/endpoint-settings.schema';

const references = (flow: FlowDocument, nodeId: string, endpoint = settings()) =>
  referencesAt({ flow, settings: endpoint }, nodeId).map((suggestion) => suggestion.reference);

/** Puts `{ref}` into the node's template field and returns what validation says about that field. */
function diagnosticsWith(flow: FlowDocument, endpoint: EndpointSettings, nodeId: string, field: string, ref: string) {
  const copy = structuredClone(flow);
  const node = copy.nodes.find((candidate) => candidate.id === nodeId);
  if (!node) throw new Error(`no node ${nodeId}`);
  node.config = { ...node.config, [field]: `{${ref}}` };
  return validateFlow({ flow: copy, settings: endpoint }).filter((d) => d.node_id === nodeId && d.field === field);
}

describe('references offered at a block', () => {
  const hello = linearFlow([
    { type: 'set_variable', config: { name: 'greeting', value: 'Hello {params.name}' } },
    { type: 'manipulate_text', config: { input: '{local.greeting}', operation: 'uppercase', ref: 'loud' } },
    { type: 'match_regex', config: { input: 'x', pattern: '(?<word>\\w+)', ref: 'm' } },
    { type: 'http_request', config: { name: 'api', url: 'https://example.com' } },
    { type: 'respond', config: { body: { message: 'x' } } },
  ]);
  const getHello = settings({ method: 'GET', query_params: [{ key: 'name', default: 'world' }] });

  it('offers the configured parameters and only the names written before the block', () => {
    expect(references(hello, 'n1', getHello)).toEqual(expect.arrayContaining(['params.name', 'current_time', 'uuid']));
    expect(references(hello, 'n1', getHello)).not.toContain('local.greeting');
    expect(references(hello, 'n2', getHello)).toContain('local.greeting');
    expect(references(hello, 'n5', getHello)).toEqual(
      expect.arrayContaining(['local.greeting', 'result.loud', 'result.m.matches', 'result.m.word', 'api.status', 'api.body']),
    );
  });

  it('offers the request body only to methods that have one', () => {
    expect(references(hello, 'n5', getHello)).not.toContain('body');
    expect(references(hello, 'n5', settings({ method: 'POST' }))).toContain('request.body');
  });

  it("offers the body schema's fields, nested ones and list items included", () => {
    const body_schema = {
      type: 'object' as const,
      required: ['customer'],
      properties: { customer: { type: 'object' as const, properties: { email: { type: 'string' as const } } }, items: { type: 'array' as const, items: { type: 'object' as const, properties: { qty: { type: 'integer' as const } } } } },
    };
    const offered = references(hello, 'n5', settings({ method: 'POST', body_schema }));
    expect(offered).toEqual(expect.arrayContaining(['body.customer', 'body.customer.email', 'body.items', 'body.items.0.qty']));
  });

  it('offers nothing written on the other branch of a condition', () => {
    const flow = graphFlow(
      [
        { id: 'c', type: 'condition', config: { left: '1', operator: 'eq', right: '1' } },
        { id: 'a', type: 'set_variable', config: { name: 'onlyTrue', value: '1' } },
        { id: 'b', type: 'respond', config: { body: {} } },
      ],
      ['start>c', 'c:true>a', 'c:false>b'],
    );
    expect(references(flow, 'b')).not.toContain('local.onlyTrue');
  });

  it('never offers a reference that deploy reports at that field', () => {
    for (const [flow, endpoint] of [
      [hello, getHello],
      [hello, settings({ method: 'PATCH', query_params: [{ key: 'q', default: null }] })],
    ] as const) {
      for (const node of flow.nodes.filter((candidate) => candidate.type === 'respond' || candidate.type === 'set_variable')) {
        const field = node.type === 'respond' ? 'body' : 'value';
        for (const ref of references(flow, node.id, endpoint)) {
          expect({ ref, found: diagnosticsWith(flow, endpoint, node.id, field, ref) }).toEqual({ ref, found: [] });
        }
      }
    }
  });
});

describe('references offered around a For Each', () => {
  const flow = {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 } },
      { id: 'f', type: 'for_each', position: { x: 0, y: 0 }, config: { list: '{body.items}', item: 'order', ref: 'orders' } },
      { id: 'u', type: 'manipulate_text', position: { x: 0, y: 0 }, config: { input: 'x', operation: 'uppercase', ref: 'up' } },
      { id: 'r', type: 'respond', position: { x: 0, y: 0 }, config: { body: {} } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'f' },
      { id: 'e2', source: 'f', target: 'u', sourceHandle: 'each' },
      { id: 'e3', source: 'f', target: 'r', sourceHandle: 'done' },
    ],
  };
  const offered = (nodeId: string) => referencesAt({ flow, settings: { name: 'x', method: 'POST', path: '/x', auth: 'none', query_params: [] } }, nodeId).map((s) => s.reference);

  it('offers the item and its index in the body, the collected value after the loop', () => {
    expect(offered('u')).toEqual(expect.arrayContaining(['local.order', 'local.order_index']));
    expect(offered('u')).not.toContain('local.orders');
    expect(offered('r')).toContain('local.orders');
    expect(offered('r')).not.toContain('local.order');
    expect(offered('r')).not.toContain('result.up');
  });
});
