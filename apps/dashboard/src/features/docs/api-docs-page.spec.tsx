// First: the engine needs TextEncoder, which jsdom lacks.
import { describeApi, compileFlow, type CompiledFlow, type EndpointSettings, type FlowDocument } from '@flowgate/flow-engine';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, project, user } from '../../testing/fake-api';
import { renderRoute } from '../../testing/render-route';

const start = { id: 'start', type: 'start', position: { x: 0, y: 0 } };
const flow = (nodes: FlowDocument['nodes']): FlowDocument => ({
  nodes: [start, ...nodes],
  edges: nodes.map((node, i) => ({ id: `e${i}`, source: i === 0 ? 'start' : nodes[i - 1]!.id, target: node.id })),
});

function endpoint(settings: EndpointSettings, document: FlowDocument) {
  const result = compileFlow({ flow: document, settings });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return { settings, compiled: result.compiled as CompiledFlow };
}

/** The document the control plane would publish for two live endpoints (built by the same engine code). */
const document = describeApi({
  title: 'Shop',
  version: '4',
  baseUrl: project.base_url,
  requireAuth: false,
  endpoints: [
    endpoint(
      { name: 'List orders', method: 'GET', path: '/orders', auth: 'none', query_params: [{ key: 'status', default: 'open' }, { key: 'limit', default: null, type: 'integer', required: true }], mcp: { enabled: true, description: 'Lists the open orders' } },
      flow([{ id: 'r', type: 'respond', position: start.position, config: { body: { status: '{params.status}', count: 2 } } }]),
    ),
    endpoint(
      {
        name: 'Create order',
        method: 'POST',
        path: '/orders',
        auth: 'admin',
        query_params: [],
        body_schema: { type: 'object', required: ['email'], properties: { email: { type: 'string' }, note: { type: 'string' } } },
      },
      flow([{ id: 'r', type: 'respond', position: start.position, config: { status: 201, body: { email: '{body.email}' } } }]),
    ),
  ],
});

function api(doc: unknown) {
  return fakeApi({
    'GET /v1/auth/me': () => [200, { user }],
    'GET /v1/projects': () => [200, { items: [project] }],
    [`GET /v1/projects/${project.id}`]: () => [200, project],
    [`GET /v1/projects/${project.id}/openapi.json`]: () => [200, doc],
  });
}

describe('API docs page', () => {
  it('shows every live endpoint: method, URL, parameters with defaults, body fields, responses and the key it needs', async () => {
    api(document);
    renderRoute(`/projects/${project.id}/docs`);
    const list = await screen.findByRole('article', { name: 'List orders' });
    expect(within(list).getByText('GET')).toBeTruthy();
    expect(within(list).getByText('http://shop.localhost:8080/orders')).toBeTruthy();
    expect(within(list).getByText('Public: no key needed')).toBeTruthy();
    expect(within(list).getByText('status')).toBeTruthy();
    expect(within(list).getByText('optional, default "open"')).toBeTruthy();
    const limit = within(list).getByText('limit').closest('li');
    expect(limit?.textContent).toBe('limit number required');
    expect(within(list).getByText('{ status: string; count: 2 }')).toBeTruthy();

    const create = screen.getByRole('article', { name: 'Create order' });
    expect(within(create).getByText('Needs an admin API key')).toBeTruthy();
    const body = within(create).getByRole('region', { name: 'Body fields' });
    expect(within(body).getByText('email').closest('li')?.textContent).toBe('email string required');
    expect(within(body).getByText('note').closest('li')?.textContent).toBe('note string optional');
    expect(within(body).getByText(/a body that does not match is refused/)).toBeTruthy();
    const statuses = within(within(create).getByRole('region', { name: 'Responses' })).getAllByRole('listitem').map((item) => item.textContent?.slice(0, 3));
    expect(statuses).toEqual(['201', '400', '401', '403', '413', '415', '429', '500', '503']);

    const download = screen.getByRole('link', { name: 'Download OpenAPI JSON' });
    expect(download.getAttribute('href')).toBe(`/v1/projects/${project.id}/openapi.json`);
    expect(download.getAttribute('download')).toBe('shop-openapi.json');
  });

  it('shows the MCP URL, the tools it offers and a client configuration to copy', async () => {
    api(document);
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderRoute(`/projects/${project.id}/docs`);
    const mcp = await screen.findByRole('region', { name: 'MCP' });
    expect(within(within(mcp).getByRole('list', { name: 'MCP tools' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['listOrders Lists the open orders (GET /orders)']);
    const urlCopy = within(mcp).getByRole('button', { name: 'Copy MCP URL' });
    await userEvent.click(urlCopy);
    expect(writeText).toHaveBeenLastCalledWith('http://shop.localhost:8080/_mcp');
    expect(within(urlCopy.closest('figure')!).getByRole('status').textContent).toBe('Copied');
    await userEvent.click(within(mcp).getByRole('button', { name: 'Copy client configuration' }));
    const copied = (writeText.mock.calls.at(-1) as unknown as [string])[0];
    // The one tool is public and the project does not require authentication: no key to fill in.
    expect(JSON.parse(copied)).toEqual({ mcpServers: { shop: { type: 'http', url: 'http://shop.localhost:8080/_mcp' } } });
  });

  it('puts the key header in the client configuration when a tool or the project needs a key', async () => {
    fakeApi({
      'GET /v1/auth/me': () => [200, { user }],
      'GET /v1/projects': () => [200, { items: [{ ...project, require_auth: true }] }],
      [`GET /v1/projects/${project.id}`]: () => [200, { ...project, require_auth: true }],
      [`GET /v1/projects/${project.id}/openapi.json`]: () => [200, document],
    });
    renderRoute(`/projects/${project.id}/docs`);
    const mcp = await screen.findByRole('region', { name: 'MCP' });
    const configuration = within(mcp).getByText(/"mcpServers"/).textContent ?? '';
    expect(JSON.parse(configuration)).toEqual({ mcpServers: { shop: { type: 'http', url: 'http://shop.localhost:8080/_mcp', headers: { Authorization: 'Bearer <your key>' } } } });
    expect(within(mcp).getByText(/Replace <your key> with a key of this project/)).toBeTruthy();
  });

  it('gives copyable curl and fetch snippets with the base URL, the key header and a body to start from', async () => {
    api(document);
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderRoute(`/projects/${project.id}/docs`);
    const create = await screen.findByRole('article', { name: 'Create order' });
    const curl = within(create).getByText(/^curl -X POST/).textContent;
    expect(curl).toBe(
      "curl -X POST 'http://shop.localhost:8080/orders' \\\n  -H 'Authorization: Bearer <your key>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{\"email\":\"<email>\",\"note\":\"<note>\"}'",
    );
    const copyCurl = within(create).getByRole('button', { name: 'Copy curl' });
    await userEvent.click(copyCurl);
    expect(writeText).toHaveBeenCalledWith(curl);
    expect(within(copyCurl.closest('figure')!).getByRole('status').textContent).toBe('Copied');

    const list = screen.getByRole('article', { name: 'List orders' });
    const fetchCode = within(list).getByText(/^const response = await fetch/).textContent;
    expect(fetchCode).toBe(
      ["const response = await fetch(\"http://shop.localhost:8080/orders?status=open\", {", "  method: 'GET',", '});', 'const data = await response.json();'].join('\n'),
    );
  });

  it('says so when nothing is live, and offers a retry when the API fails', async () => {
    api({ ...document, paths: {} });
    const first = renderRoute(`/projects/${project.id}/docs`);
    expect(await screen.findByText('No live endpoints')).toBeTruthy();
    first.unmount();

    fakeApi({
      'GET /v1/auth/me': () => [200, { user }],
      'GET /v1/projects': () => [200, { items: [project] }],
      [`GET /v1/projects/${project.id}`]: () => [200, project],
      [`GET /v1/projects/${project.id}/openapi.json`]: () => [503, { success: false, code: 'unavailable', message: 'Try again' }],
    });
    renderRoute(`/projects/${project.id}/docs`);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
