/** Flow documents for tests. */
export const respondFlow = (message: string) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'r1', type: 'respond', position: { x: 0, y: 120 }, config: { status: 200, body: { message } } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'r1' }],
});

/** A Set Variable block without its required name: fine as a draft, refused at Deploy. */
export const brokenFlow = () => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'n1', type: 'set_variable', position: { x: 0, y: 120 }, config: { value: 'x' } },
    { id: 'r1', type: 'respond', position: { x: 0, y: 240 }, config: { body: { ok: true } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'r1' },
  ],
});

export const endpointBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Orders',
  method: 'GET',
  path: '/orders',
  auth: 'none',
  query_params: [{ key: 'id', default: null }],
  flow: respondFlow('hello'),
  ...overrides,
});
