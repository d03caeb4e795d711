import { endpointSettingsSchema } from './endpoint-settings.schema';
import { flowDocumentSchema } from './flow-document.schema';

describe('endpoint settings schema', () => {
  it('defaults the method to GET, auth to none and query parameters to none', () => {
    expect(endpointSettingsSchema.parse({ name: 'Orders', path: '/orders' })).toEqual({ name: 'Orders', method: 'GET', path: '/orders', auth: 'none', query_params: [] });
  });

  it('defaults a query parameter default to null', () => {
    expect(endpointSettingsSchema.parse({ name: 'x', path: '/x', query_params: [{ key: 'q' }] }).query_params).toEqual([{ key: 'q', default: null }]);
  });

  it('reports an empty query parameter key once, as empty', () => {
    const result = endpointSettingsSchema.safeParse({ name: 'x', path: '/x', query_params: [{ key: '' }] });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([['query_params.0.key', 'too_small']]);
  });

  it('allows at most 10 query parameters', () => {
    const params = (count: number) => Array.from({ length: count }, (_, index) => ({ key: `p${index}` }));
    expect(endpointSettingsSchema.safeParse({ name: 'x', path: '/x', query_params: params(10) }).success).toBe(true);
    expect(endpointSettingsSchema.safeParse({ name: 'x', path: '/x', query_params: params(11) }).success).toBe(false);
  });

  it.each(['/api/orders', '/admin', '/_health', 'orders', '/a b', '/api'])('refuses the path %j', (path) => {
    expect(endpointSettingsSchema.safeParse({ name: 'x', path }).success).toBe(false);
  });

  it.each([
    ['/../admin', '. or .. segments'],
    ['/./x', '. or .. segments'],
    ['/a/../b', '. or .. segments'],
    ['/a/..', '. or .. segments'],
    ['/a/./', '. or .. segments'],
    ['/%2e%2e/admin', 'percent-encoding'],
    ['/a%2fb', 'percent-encoding'],
    ['//x', 'empty segments'],
    ['/a//b', 'empty segments'],
    ['/a\\b', 'backslashes'],
    ['/\\admin', 'backslashes'],
    ['x/y', 'must start with /'],
  ])('refuses %j, a path clients would change before sending, saying why (%s)', (path, reason) => {
    const result = endpointSettingsSchema.safeParse({ name: 'x', path });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['path'], message: expect.stringContaining(reason) })]);
  });

  it.each([
    ['/orders/', '/orders'],
    ['/v1.2/a..b/.well-known/...', '/v1.2/a..b/.well-known/...'],
    ['/v1/orders', '/v1/orders'],
    ['/apis', '/apis'],
    ['/', '/'],
  ])('accepts the path %j as %j', (path, normalised) => {
    expect(endpointSettingsSchema.parse({ name: 'x', path }).path).toBe(normalised);
  });

  it('refuses query parameter names that cannot appear in {params.KEY}', () => {
    expect(endpointSettingsSchema.safeParse({ name: 'x', path: '/x', query_params: [{ key: 'a b' }] }).success).toBe(false);
  });
});

describe('flow document schema', () => {
  it('accepts the flow document of the design, with React Flow null handles', () => {
    const flow = {
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 } },
        { id: 'n1', type: 'set_variable', position: { x: 0, y: 120 }, config: { name: 'greeting', value: 'Hello {params.name}' } },
        { id: 'n2', type: 'respond', position: { x: 0, y: 240 }, config: { status: 200, body: { message: '{local.greeting}' } } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'n1', sourceHandle: null },
        { id: 'e2', source: 'n1', target: 'n2' },
      ],
    };
    expect(flowDocumentSchema.parse(flow)).toEqual(flow);
  });

  it('refuses a node without a position', () => {
    expect(flowDocumentSchema.safeParse({ nodes: [{ id: 'a', type: 'start' }], edges: [] }).success).toBe(false);
  });
});
