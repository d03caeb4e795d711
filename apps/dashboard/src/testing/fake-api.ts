/**
 * A stand-in for the control plane in component tests (jsdom has no server): `fakeApi({'GET
 * /v1/projects': () => [200, {...}]})` installs a global fetch that answers by "METHOD path"; a `*`
 * segment in a route matches any one segment (`DELETE /v1/…/rows/*`).
 */
export type Reply = [status: number, body: unknown];
export type Handler = (request: { body: unknown; path: string; query: URLSearchParams }) => Reply | Promise<Reply>;

export function fakeApi(routes: Record<string, Handler>) {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  const fetchMock = jest.fn(async (input: string, init: { method?: string; body?: string } = {}) => {
    const method = init.method ?? 'GET';
    const [path = '', queryText = ''] = input.split('?');
    const body = init.body ? parseBody(init.body) : undefined;
    calls.push({ method, path, body });
    const handler = routes[`${method} ${path}`] ?? wildcard(routes, `${method} ${path}`);
    const [status, reply] = handler ? await handler({ body, path, query: new URLSearchParams(queryText) }) : [404, { success: false, code: 'not_found', message: `No route ${method} ${path}` }];
    const text = typeof reply === 'string' ? reply : JSON.stringify(reply);
    return { ok: status >= 200 && status < 300, status, json: async () => reply, text: async () => text };
  });
  (globalThis as { fetch?: unknown }).fetch = fetchMock;
  return { calls, fetchMock };
}

function wildcard(routes: Record<string, Handler>, key: string): Handler | undefined {
  const segments = key.split('/');
  const match = Object.keys(routes).find((route) => {
    const pattern = route.split('/');
    return route.includes('*') && pattern.length === segments.length && pattern.every((part, index) => part === '*' || part === segments[index]);
  });
  return match === undefined ? undefined : routes[match];
}

/** A JSON body parsed; anything else (a CSV file) as the text sent. */
function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export const project = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Shop',
  subdomain: 'shop',
  require_auth: false,
  base_url: 'http://shop.localhost:8080',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

export const user = { id: '22222222-2222-4222-8222-222222222222', email: 'ada@example.test', created_at: '2026-01-01T00:00:00.000Z' };
