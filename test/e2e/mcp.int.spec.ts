/**
 * Every project is an MCP server: the official SDK's client (Streamable HTTP) against a gateway
 * process of the real stack, with endpoints saved and deployed through the control plane's REST
 * API. Keys, rate limits and inbound checks apply to tool calls as to HTTP requests.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomBytes } from 'node:crypto';
import { formatApiKey } from '@flowgate/contracts';
import { type AppStack, hostFetch, request, startAppStack, waitFor } from '@flowgate/testing';

jest.setTimeout(180_000);

const suffix = randomBytes(4).toString('hex');
/** Wrong keys an address (and a project) may send per minute before 429 `too_many_attempts`. */
const KEY_FAILURES = 5;
const subdomain = `mcp-${suffix}`;
let stack: AppStack;
let api: string;
let gateway: string;
let token: string;
let projectId: string;
let key: string;
let hiddenId: string;

const cp = (path: string, options: Parameters<typeof request>[1] = {}) => request(`${api}${path}`, { token, ...options });
const flow = (body: unknown) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'r1', type: 'respond', position: { x: 250, y: 0 }, config: { status: 200, body } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'r1' }],
});

async function deployed(settings: Record<string, unknown>, answer: unknown): Promise<string> {
  const created = await cp(`/projects/${projectId}/endpoints`, { method: 'POST', body: { auth: 'none', query_params: [], ...settings, flow: flow(answer) } });
  expect(created).toMatchObject({ status: 201, body: { diagnostics: [] } });
  expect((await cp(`/projects/${projectId}/endpoints/${created.body.id}/deploy`, { method: 'POST' })).status).toBe(200);
  return created.body.id as string;
}

/** An MCP client of the project at `of`, from the address `from` (the gateway trusts X-Forwarded-For here). */
async function connected(withKey: string | null, { of = subdomain, from }: { of?: string; from?: string } = {}): Promise<Client> {
  const client = new Client({ name: 'flowgate-test', version: '1.0.0' });
  const headers: Record<string, string> = {};
  if (withKey !== null) headers.authorization = `Bearer ${withKey}`;
  if (from !== undefined) headers['x-forwarded-for'] = from;
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway}/_mcp`), { fetch: hostFetch(`${of}.localhost`), requestInit: { headers } });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  stack = await startAppStack({ gatewayEnv: { GATEWAY_TRUST_PROXY: 'true', KEY_FAILURES_PER_MINUTE: String(KEY_FAILURES) } });
  api = `${stack.controlPlaneUrl}/v1`;
  gateway = stack.gatewayUrl;
  token = (await request(`${api}/auth/signup`, { method: 'POST', body: { email: `mcp-${suffix}@example.com`, password: 'correct horse battery' } })).body.token;
  projectId = (await cp('/projects', { method: 'POST', body: { name: 'Agents', subdomain } })).body.id;
  key = (await cp(`/projects/${projectId}/api-keys`, { method: 'POST', body: { name: 'agent', permission: 'user', ratelimit_min: 4 } })).body.key;

  await deployed(
    { name: 'List orders', method: 'GET', path: '/orders', auth: 'user', query_params: [{ key: 'limit', type: 'integer', required: true }], mcp: { enabled: true, description: 'Lists the newest orders' } },
    { limit: '{params.limit}', orders: [] },
  );
  await deployed(
    { name: 'Greet', method: 'POST', path: '/greet', body_schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } }, mcp: { enabled: true } },
    { greeting: 'Hello {body.name}' },
  );
  hiddenId = await deployed({ name: 'Internal', method: 'GET', path: '/internal' }, { secret: 'not a tool' });
});

afterAll(async () => {
  await stack?.stop();
});

test('lists the live endpoints that opt in as tools, with input schemas from their typed inputs', async () => {
  const client = await connected(key);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(['greet', 'listOrders']);
  const orders = tools.find((tool) => tool.name === 'listOrders');
  expect(orders).toMatchObject({ description: 'Lists the newest orders', inputSchema: { type: 'object', properties: { limit: { type: 'integer' } }, required: ['limit'] } });
  expect(tools.find((tool) => tool.name === 'greet')).toMatchObject({ description: 'Greet', inputSchema: { properties: { body: { type: 'object', required: ['name'] } }, required: ['body'] } });
  await client.close();
});

test('calls a tool as an HTTP request: typed arguments, structured results, the endpoint refusing bad input', async () => {
  const client = await connected(key);
  const listed = await client.callTool({ name: 'listOrders', arguments: { limit: 5 } });
  expect(listed).toMatchObject({ structuredContent: { limit: 5, orders: [] } });
  expect(listed.isError).toBeFalsy();
  const greeted = await client.callTool({ name: 'greet', arguments: { body: { name: 'Ada' } } });
  expect(greeted.structuredContent).toEqual({ greeting: 'Hello Ada' });
  const refused = await client.callTool({ name: 'greet', arguments: { body: {} } });
  expect(refused.isError).toBe(true);
  expect(JSON.parse((refused.content as Array<{ text: string }>)[0].text)).toMatchObject({ code: 'validation_failed' });
  await client.close();
});

test("refuses a keyed tool without a key, and past the key's rate limit", async () => {
  const anonymous = await connected(null);
  const refused = await anonymous.callTool({ name: 'listOrders', arguments: { limit: 1 } });
  expect(refused.isError).toBe(true);
  expect(JSON.parse((refused.content as Array<{ text: string }>)[0].text)).toMatchObject({ code: 'missing_api_key' });
  await anonymous.close();

  const client = await connected(key);
  const outcomes: boolean[] = [];
  // The key allows 4 requests a minute; the earlier test used 1 of them on this endpoint's key.
  for (let i = 0; i < 5; i++) outcomes.push((await client.callTool({ name: 'listOrders', arguments: { limit: 1 } })).isError === true);
  expect(outcomes.at(-1)).toBe(true);
  const limited = await client.callTool({ name: 'listOrders', arguments: { limit: 1 } });
  expect(JSON.parse((limited.content as Array<{ text: string }>)[0].text)).toMatchObject({ code: 'rate_limited' });
  await client.close();
});

test('sees a deploy on its next tools/list', async () => {
  const client = await connected(key);
  expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('internal');
  const saved = await cp(`/projects/${projectId}/endpoints/${hiddenId}`, {
    method: 'PUT',
    body: { name: 'Internal', method: 'GET', path: '/internal', auth: 'none', query_params: [], mcp: { enabled: true }, flow: flow({ now: 'a tool' }) },
  });
  expect(saved.status).toBe(200);
  expect((await cp(`/projects/${projectId}/endpoints/${hiddenId}/deploy`, { method: 'POST' })).status).toBe(200);
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('internal');
  expect((await client.callTool({ name: 'internal', arguments: {} })).structuredContent).toEqual({ now: 'a tool' });
  await client.close();
});

test('logs each tool call as a request of its endpoint with trigger mcp', async () => {
  const answer = await waitFor(async () => {
    const logs = await cp(`/projects/${projectId}/logs?trigger=mcp&limit=50`);
    // Logs arrive in batches, and not always in the order they were sent (a gateway's batches go
    // to one Kafka partition after another): wait until a call of every endpoint is among them.
    const logged = new Set(logs.status === 200 ? (logs.body.items as Array<{ endpoint: string }>).map((item) => item.endpoint) : []);
    return ['/orders', '/greet', '/internal'].every((endpoint) => logged.has(endpoint)) ? logs : undefined;
  }, 'a tool call of every endpoint to be logged', 60_000, 500);
  const items = answer!.body.items as Array<{ endpoint: string; trigger: string }>;
  expect(new Set(items.map((item) => item.endpoint))).toEqual(new Set(['/orders', '/greet', '/internal']));
  expect(items.every((item) => item.trigger === 'mcp')).toBe(true);
  const http = await cp(`/projects/${projectId}/logs?trigger=http&limit=50`);
  expect((http.body.items as Array<{ endpoint: string }>).some((item) => item.endpoint === '/orders')).toBe(false);
});

test("counts an MCP client's wrong keys against its own address, not against every client's", async () => {
  // A second project, so that the first one's count of wrong keys (per project) does not decide.
  const other = `mcp2-${suffix}`;
  const otherId = (await cp('/projects', { method: 'POST', body: { name: 'Other agents', subdomain: other } })).body.id as string;
  const endpoint = await cp(`/projects/${otherId}/endpoints`, {
    method: 'POST',
    body: { name: 'Status', method: 'GET', path: '/status', auth: 'user', query_params: [], mcp: { enabled: true }, flow: flow({ up: true }) },
  });
  expect((await cp(`/projects/${otherId}/endpoints/${endpoint.body.id}/deploy`, { method: 'POST' })).status).toBe(200);
  const otherKey = (await cp(`/projects/${otherId}/api-keys`, { method: 'POST', body: { name: 'agent', permission: 'user' } })).body.key as string;

  // Addresses of this run's own: the counts live in the shared Redis for a minute.
  const [guessing, calling] = [`198.51.100.${randomBytes(1)[0]! % 250}-${suffix}`, `203.0.113.${randomBytes(1)[0]! % 250}-${suffix}`];
  const guesser = await connected(formatApiKey((size) => randomBytes(size)), { from: guessing });
  const codes: string[] = [];
  for (let i = 0; i <= KEY_FAILURES; i++) codes.push(JSON.parse(((await guesser.callTool({ name: 'listOrders', arguments: { limit: 1 } })).content as Array<{ text: string }>)[0].text).code);
  expect(codes.slice(0, KEY_FAILURES)).toEqual(Array(KEY_FAILURES).fill('invalid_api_key'));
  expect(codes.at(-1)).toBe('too_many_attempts');
  await guesser.close();

  // Another client's first call with a key never used before is checked, and answered.
  const client = await connected(otherKey, { of: other, from: calling });
  const status = await client.callTool({ name: 'status', arguments: {} });
  expect(status.structuredContent).toEqual({ up: true });
  await client.close();
});

test('answers a forged internal call path as a missing endpoint', async () => {
  const answer = await hostFetch(`${subdomain}.localhost`)(`${gateway}/_mcp-call/forged/internal`);
  expect(answer.status).toBe(404);
});
