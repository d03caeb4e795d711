/**
 * The whole stack as a user meets it: the four apps as their own processes (two gateways),
 * against the real PostgreSQL, Redis and Kafka. Only the HTTP APIs are used — the control
 * plane's /v1 and the project's own address on the gateways.
 */
import { randomBytes } from 'node:crypto';
import { type AppProcess, freePort, request, spawnApp, waitFor, waitReady } from '@flowgate/testing';

jest.setTimeout(180_000);

const suffix = randomBytes(4).toString('hex');
const apps: AppProcess[] = [];
let api: string;
let gateways: string[];
let gatewayPort: number[];
let token: string;
let projectId: string;
let subdomain = `e2e-${suffix}`;

const host = (index: number) => `${subdomain}.localhost:${gatewayPort[index]}`;
const gw = (index: number, path: string, options: Parameters<typeof request>[1] = {}) =>
  request(`${gateways[index]}${path}`, { host: host(index), ...options });
const cp = (path: string, options: Parameters<typeof request>[1] = {}) => request(`${api}${path}`, { token, ...options });

const flow = (message: string) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'n1', type: 'set_variable', position: { x: 0, y: 120 }, config: { name: 'greeting', value: `${message} {params.name}` } },
    { id: 'n2', type: 'respond', position: { x: 0, y: 240 }, config: { status: 200, body: { message: '{local.greeting}' } } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'n2' },
  ],
});

beforeAll(async () => {
  const [cpPort, cpInternalPort, gw1, gw2, ingestPort, workerPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  gatewayPort = [gw1, gw2];
  const shared = {
    KAFKA_LOG_TOPIC: `flowgate.e2e.${suffix}`,
    KAFKA_LOG_DLQ_TOPIC: `flowgate.e2e.${suffix}.dlq`,
    GATEWAY_PUBLIC_URL: `http://{subdomain}.localhost:${gw1}`,
    CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${cpInternalPort}`,
    BULLMQ_PREFIX: `e2e-${suffix}`,
  };
  const controlPlane = spawnApp('control-plane', { ...shared, CONTROL_PLANE_PORT: String(cpPort), CONTROL_PLANE_INTERNAL_PORT: String(cpInternalPort) });
  const ingest = spawnApp('log-ingest', { ...shared, LOG_INGEST_PORT: String(ingestPort), LOG_INGEST_GROUP: `e2e-${suffix}` });
  const worker = spawnApp('worker', { ...shared, WORKER_PORT: String(workerPort) });
  const gateway1 = spawnApp('gateway', { ...shared, GATEWAY_PORT: String(gw1), GATEWAY_HOST: '127.0.0.1' });
  const gateway2 = spawnApp('gateway', { ...shared, GATEWAY_PORT: String(gw2), GATEWAY_HOST: '127.0.0.1' });
  apps.push(controlPlane, ingest, worker, gateway1, gateway2);
  await Promise.all([
    waitReady(controlPlane, `http://127.0.0.1:${cpPort}/readyz`),
    waitReady(ingest, `http://127.0.0.1:${ingestPort}/readyz`),
    waitReady(worker, `http://127.0.0.1:${workerPort}/readyz`),
    waitReady(gateway1, `http://127.0.0.1:${gw1}/_readyz`),
    waitReady(gateway2, `http://127.0.0.1:${gw2}/_readyz`),
  ]);
  api = `http://127.0.0.1:${cpPort}/v1`;
  gateways = [`http://127.0.0.1:${gw1}`, `http://127.0.0.1:${gw2}`];
});

afterAll(async () => {
  const codes = await Promise.all(apps.map((app) => app.stop()));
  // Graceful shutdown is part of the contract: every app exits 0 on SIGTERM.
  expect(codes).toEqual(apps.map(() => 0));
});

test('a new account creates a project and deploys an endpoint that both gateways serve at once', async () => {
  const signup = await request(`${api}/auth/signup`, { method: 'POST', body: { email: `e2e-${suffix}@example.com`, password: 'correct horse battery' } });
  expect(signup.status).toBe(201);
  token = signup.body.token;

  const project = await cp('/projects', { method: 'POST', body: { name: 'E2E', subdomain } });
  expect(project.status).toBe(201);
  expect(project.body.base_url).toBe(`http://${subdomain}.localhost:${gatewayPort[0]}`);
  projectId = project.body.id;

  const endpoint = await cp(`/projects/${projectId}/endpoints`, {
    method: 'POST',
    body: { name: 'Hello', method: 'GET', path: '/hello', auth: 'none', query_params: [{ key: 'name', default: 'world' }], flow: flow('Hello') },
  });
  expect(endpoint.status).toBe(201);
  expect(endpoint.body.status).not.toBe('live');
  // A draft is never served.
  expect((await gw(0, '/api/hello')).status).toBe(404);

  const deployed = await cp(`/projects/${projectId}/endpoints/${endpoint.body.id}/deploy`, { method: 'POST' });
  expect(deployed.status).toBe(200);
  expect(deployed.body).toMatchObject({ status: 'live', live_version: 1, live_url: `http://${subdomain}.localhost:${gatewayPort[0]}/hello` });

  // Served the moment the control plane answered, on both gateways, under both path forms.
  expect(await gw(0, '/api/hello?name=Ada')).toMatchObject({ status: 200, body: { message: 'Hello Ada' } });
  expect(await gw(1, '/hello')).toMatchObject({ status: 200, body: { message: 'Hello world' } });
  expect(await gw(1, '/hello', { method: 'POST' })).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
});

test('save, deploy and roll back change what callers get, version by version', async () => {
  const list = await cp(`/projects/${projectId}/endpoints`);
  const id = list.body.items[0].id;
  const saved = await cp(`/projects/${projectId}/endpoints/${id}`, {
    method: 'PUT',
    body: { name: 'Hello', method: 'GET', path: '/hello', auth: 'none', query_params: [{ key: 'name', default: 'world' }], flow: flow('Howdy') },
  });
  expect(saved.status).toBe(200);
  expect(saved.body.has_undeployed_changes).toBe(true);
  // Saved is not live.
  expect((await gw(1, '/hello')).body).toEqual({ message: 'Hello world' });

  expect((await cp(`/projects/${projectId}/endpoints/${id}/deploy`, { method: 'POST' })).body.live_version).toBe(2);
  expect((await gw(1, '/hello')).body).toEqual({ message: 'Howdy world' });

  const versions = await cp(`/projects/${projectId}/endpoints/${id}/versions`);
  expect(versions.body.items.map((v: { version: number }) => v.version).sort()).toEqual([1, 2]);

  const rolledBack = await cp(`/projects/${projectId}/endpoints/${id}/versions/1/deploy`, { method: 'POST' });
  expect(rolledBack.body.live_version).toBe(1);
  expect((await gw(0, '/hello')).body).toEqual({ message: 'Hello world' });
  expect((await gw(1, '/hello')).body).toEqual({ message: 'Hello world' });
});

test('keys made through the admin API authenticate, rate-limit exactly across gateways, and die on delete', async () => {
  const admin = await cp(`/projects/${projectId}/api-keys`, { method: 'POST', body: { name: 'ops', permission: 'admin' } });
  expect(admin.status).toBe(201);
  const adminKey: string = admin.body.key;

  const privateEndpoint = await cp(`/projects/${projectId}/endpoints`, {
    method: 'POST',
    body: { name: 'Private', method: 'GET', path: '/private', auth: 'user', query_params: [{ key: 'name', default: null }], flow: flow('Secret') },
  });
  expect((await cp(`/projects/${projectId}/endpoints/${privateEndpoint.body.id}/deploy`, { method: 'POST' })).status).toBe(200);

  const created = await gw(0, '/admin/api-keys', { method: 'POST', token: adminKey, body: { name: 'mobile', ratelimit_min: 3, permission: 'user' } });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    success: true,
    key: expect.any(String),
    key_data: { id: expect.any(String), name: 'mobile', last_used_at: null, created_at: expect.any(String), ratelimit_min: 3, permission: 'user' },
  });
  const userKey: string = created.body.key;

  expect(await gw(0, '/private')).toMatchObject({ status: 401, body: { success: false, code: 'missing_api_key' } });
  const answers = [await gw(0, '/private', { token: userKey }), await gw(1, '/private', { token: userKey }), await gw(0, '/private', { token: userKey })];
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  expect(answers[2].headers['ratelimit-remaining']).toBe('0');
  const limited = await gw(1, '/private', { token: userKey });
  expect(limited).toMatchObject({ status: 429, body: { success: false, code: 'rate_limited' } });
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

  // A user key cannot manage keys.
  expect((await gw(0, '/admin/api-keys', { method: 'POST', token: userKey, body: { name: 'x' } })).status).toBe(403);

  const deleted = await gw(1, `/admin/api-keys/${created.body.key_data.id}`, { method: 'DELETE', token: adminKey });
  expect(deleted).toMatchObject({ status: 200, body: { success: true, message: 'API key deleted' } });
  expect(await gw(0, '/private', { token: userKey })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
  expect(await gw(1, '/private', { token: userKey })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });

  // The admin key's use reaches the dashboard's key list through the log pipeline.
  const used = await waitFor(async () => {
    const keys = await cp(`/projects/${projectId}/api-keys`);
    const row = keys.body.items.find((k: { id: string }) => k.id === admin.body.key_data.id);
    return row?.last_used_at ? row : undefined;
  }, 'the admin key\'s last use', 10_000, 100);
  expect(used?.last_used_at).toEqual(expect.any(String));
});

test('every request to the project is in the logs API, newest first, with its status and key', async () => {
  const logs = await waitFor(async () => {
    const page = await cp(`/projects/${projectId}/logs?limit=200`);
    // 18 gateway requests so far in this file (4 + 4 + 10), key-management calls included.
    return page.body.items.length >= 18 ? page.body : undefined;
  }, '18 requests in the logs', 10_000, 100);
  expect(logs?.items).toHaveLength(18);
  const items: Array<{ endpoint: string; status: number; method: string; time: string; duration_ms: number; key_id: string | null }> = logs!.items;
  const times = items.map((item) => Date.parse(item.time));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  expect(items.filter((item) => item.status === 429)).toHaveLength(1);
  expect(items.filter((item) => item.endpoint === '/api/hello' && item.status === 200)).toHaveLength(1);
  expect(items.find((item) => item.status === 405)).toMatchObject({ method: 'POST', endpoint: '/hello' });
  expect(items.every((item) => item.duration_ms >= 0)).toBe(true);

  const filtered = await cp(`/projects/${projectId}/logs?status=401`);
  expect(filtered.body.items.length).toBeGreaterThanOrEqual(3);
  expect(filtered.body.items.every((item: { status: number }) => item.status === 401)).toBe(true);
});

test('a subdomain change moves the API at once: the new address serves, the old one is gone', async () => {
  const old = subdomain;
  const renamed = await cp(`/projects/${projectId}`, { method: 'PATCH', body: { subdomain: `e2e-new-${suffix}` } });
  expect(renamed.status).toBe(200);
  subdomain = renamed.body.subdomain;
  expect((await gw(0, '/hello')).body).toEqual({ message: 'Hello world' });
  expect((await gw(1, '/hello')).body).toEqual({ message: 'Hello world' });
  const gone = await request(`${gateways[1]}/hello`, { host: `${old}.localhost:${gatewayPort[1]}` });
  expect(gone).toMatchObject({ status: 404, body: { success: false, code: 'project_not_found' } });
});

test('require authentication turns a public endpoint private; deleting the project stops its traffic', async () => {
  expect((await cp(`/projects/${projectId}`, { method: 'PATCH', body: { require_auth: true } })).status).toBe(200);
  expect(await gw(1, '/hello')).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });

  expect((await cp(`/projects/${projectId}`, { method: 'DELETE' })).status).toBeLessThan(300);
  expect(await gw(0, '/hello')).toMatchObject({ status: 404, body: { code: 'project_not_found' } });
  expect((await cp(`/projects/${projectId}`)).status).toBe(404);
});
