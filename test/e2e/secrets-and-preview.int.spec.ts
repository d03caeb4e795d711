/**
 * Secrets and the preview address through the whole stack, as a user meets them: the control
 * plane, log-ingest and two gateways as their own processes, the real PostgreSQL, Redis and
 * Kafka, and a stand-in third-party API on 127.0.0.1 (reachable through the egress allow-list).
 * Only HTTP APIs are used; the test then greps every answer and log entry for the values.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Answer, type AppProcess, freePort, request, spawnApp, waitFor, waitReady } from '@flowgate/testing';

jest.setTimeout(180_000);

const suffix = randomBytes(4).toString('hex');
const LIVE = `live-token-${suffix}-a1`;
const LIVE_2 = `live-token-${suffix}-b2`;
const PREVIEW = `preview-token-${suffix}-c3`;
const VALUES = [LIVE, LIVE_2, PREVIEW];

const apps: AppProcess[] = [];
const seen: string[] = [];
let api: string;
let gateways: string[];
let gatewayPorts: number[];
let token: string;
let projectId: string;
let key: string;
let helloId: string;
let standIn: http.Server;
let standInUrl: string;
/** The Authorization headers the stand-in received, in order. */
const received: string[] = [];
const subdomain = `sec-${suffix}`;

/** Keeps every answer for the final grep. */
const kept = (answer: Answer): Answer => {
  seen.push(JSON.stringify(answer.body));
  return answer;
};
const cp = async (path: string, options: Parameters<typeof request>[1] = {}) => kept(await request(`${api}${path}`, { token, ...options }));
const live = async (index: number, path: string, options: Parameters<typeof request>[1] = {}) =>
  kept(await request(`${gateways[index]}${path}`, { host: `${subdomain}.localhost:${gatewayPorts[index]}`, ...options }));
const preview = async (index: number, path: string, options: Parameters<typeof request>[1] = {}) =>
  kept(await request(`${gateways[index]}${path}`, { host: `${subdomain}--preview.localhost:${gatewayPorts[index]}`, ...options }));

const node = (id: string, type: string, config: Record<string, unknown>, x: number) => ({ id, type, position: { x, y: 0 }, config });
/** Calls the stand-in with the secret, answers with what came back. */
const helloFlow = (greeting: string) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    node('h1', 'http_request', { name: 'api', url: `${standInUrl}/hello`, method: 'GET', headers: [{ key: 'Authorization', value: 'Bearer {secrets.API_TOKEN}' }] }, 250),
    node('r1', 'respond', { status: 200, body: { greeting, upstream: '{api.status}' } }, 500),
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'h1' },
    { id: 'e2', source: 'h1', target: 'r1' },
  ],
});
/** An upstream that echoes the header back; the flow fails with a message quoting it. */
const echoFlow = () => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    node('h1', 'http_request', { name: 'echo', url: `${standInUrl}/echo`, method: 'GET', headers: [{ key: 'Authorization', value: 'Bearer {secrets.API_TOKEN}' }] }, 250),
    node('x1', 'return_error', { status: 502, message: 'Upstream said {echo.body.auth}' }, 500),
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'h1' },
    { id: 'e2', source: 'h1', target: 'x1' },
  ],
});
const settings = (name: string, path: string) => ({ name, method: 'GET', path, auth: 'none', query_params: [] });

beforeAll(async () => {
  standIn = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    received.push(auth);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url === '/echo' ? { auth } : { ok: true }));
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;

  const [cpPort, cpInternalPort, gw1, gw2, ingestPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  gatewayPorts = [gw1, gw2];
  const shared = {
    KAFKA_LOG_TOPIC: `flowgate.secrets.${suffix}`,
    KAFKA_LOG_DLQ_TOPIC: `flowgate.secrets.${suffix}.dlq`,
    GATEWAY_PUBLIC_URL: `http://{subdomain}.localhost:${gw1}`,
    CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${cpInternalPort}`,
    FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8',
  };
  const controlPlane = spawnApp('control-plane', { ...shared, CONTROL_PLANE_PORT: String(cpPort), CONTROL_PLANE_INTERNAL_PORT: String(cpInternalPort) });
  const ingest = spawnApp('log-ingest', { ...shared, LOG_INGEST_PORT: String(ingestPort), LOG_INGEST_GROUP: `secrets-${suffix}` });
  const gateway1 = spawnApp('gateway', { ...shared, GATEWAY_PORT: String(gw1), GATEWAY_HOST: '127.0.0.1' });
  const gateway2 = spawnApp('gateway', { ...shared, GATEWAY_PORT: String(gw2), GATEWAY_HOST: '127.0.0.1' });
  apps.push(controlPlane, ingest, gateway1, gateway2);
  await Promise.all([
    waitReady(controlPlane, `http://127.0.0.1:${cpPort}/readyz`),
    waitReady(ingest, `http://127.0.0.1:${ingestPort}/readyz`),
    waitReady(gateway1, `http://127.0.0.1:${gw1}/_readyz`),
    waitReady(gateway2, `http://127.0.0.1:${gw2}/_readyz`),
  ]);
  api = `http://127.0.0.1:${cpPort}/v1`;
  gateways = [`http://127.0.0.1:${gw1}`, `http://127.0.0.1:${gw2}`];

  const signup = await request(`${api}/auth/signup`, { method: 'POST', body: { email: `secrets-${suffix}@example.com`, password: 'correct horse battery' } });
  token = signup.body.token;
  projectId = (await cp('/projects', { method: 'POST', body: { name: 'Secrets', subdomain } })).body.id;
  key = (await cp(`/projects/${projectId}/api-keys`, { method: 'POST', body: { name: 'app', permission: 'user', ratelimit_min: 1000 } })).body.key;
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await new Promise((resolve) => standIn?.close(resolve));
});

test('a draft reading a secret is served on the preview address with a key and the preview value, not live', async () => {
  expect((await cp(`/projects/${projectId}/secrets/API_TOKEN`, { method: 'PUT', body: { value: LIVE, preview_value: PREVIEW } })).status).toBe(201);
  const created = await cp(`/projects/${projectId}/endpoints`, { method: 'POST', body: { ...settings('Hello', '/hello'), flow: helloFlow('draft one') } });
  expect(created.status).toBe(201);
  expect(created.body.diagnostics).toEqual([]);
  expect(created.body.preview_url).toBe(`http://${subdomain}--preview.localhost:${gatewayPorts[0]}/hello`);
  helloId = created.body.id;

  // Without a key the preview refuses, whatever the endpoint's auth; the live address has nothing yet.
  expect((await preview(0, '/hello')).status).toBe(401);
  expect((await live(0, '/hello')).status).toBe(404);
  expect(await preview(1, '/hello', { token: key })).toMatchObject({ status: 200, body: { greeting: 'draft one', upstream: 200 } });
  expect(received.at(-1)).toBe(`Bearer ${PREVIEW}`);

  // A Save reaches the preview address before the PUT answers, on both gateways.
  expect((await cp(`/projects/${projectId}/endpoints/${helloId}`, { method: 'PUT', body: { ...settings('Hello', '/hello'), flow: helloFlow('draft two') } })).status).toBe(200);
  expect((await preview(0, '/hello', { token: key })).body.greeting).toBe('draft two');
  expect((await preview(1, '/api/hello', { token: key })).body.greeting).toBe('draft two');

  const openApi = await preview(0, '/_openapi.json', { token: key });
  expect(openApi.status).toBe(200);
  expect(Object.keys(openApi.body.paths)).toEqual(['/hello']);
  expect((await preview(0, '/_openapi.json')).status).toBe(401);
});

test('deployed, the live address sends the live value; a replaced value is sent by the next request on both gateways', async () => {
  expect((await cp(`/projects/${projectId}/endpoints/${helloId}/deploy`, { method: 'POST' })).status).toBe(200);
  expect(await live(0, '/hello')).toMatchObject({ status: 200, body: { greeting: 'draft two', upstream: 200 } });
  expect(received.at(-1)).toBe(`Bearer ${LIVE}`);

  expect((await cp(`/projects/${projectId}/secrets/API_TOKEN`, { method: 'PUT', body: { value: LIVE_2 } })).status).toBe(200);
  expect((await live(0, '/hello')).status).toBe(200);
  expect(received.at(-1)).toBe(`Bearer ${LIVE_2}`);
  expect((await live(1, '/hello')).status).toBe(200);
  expect(received.at(-1)).toBe(`Bearer ${LIVE_2}`);
  // The preview value was kept (omitted in the PUT).
  await preview(1, '/hello', { token: key });
  expect(received.at(-1)).toBe(`Bearer ${PREVIEW}`);

  // A change saved but not deployed stays on the preview address.
  await cp(`/projects/${projectId}/endpoints/${helloId}`, { method: 'PUT', body: { ...settings('Hello', '/hello'), flow: helloFlow('draft three') } });
  expect((await live(1, '/hello')).body.greeting).toBe('draft two');
  expect((await preview(1, '/hello', { token: key })).body.greeting).toBe('draft three');
});

test('an upstream echoing the secret is masked in test-run traces, error answers and log messages', async () => {
  const echo = await cp(`/projects/${projectId}/endpoints`, { method: 'POST', body: { ...settings('Echo', '/echo'), flow: echoFlow() } });
  const run = await cp(`/projects/${projectId}/endpoints/${echo.body.id}/test-runs`, { method: 'POST', body: { request: {} } });
  expect(run.status).toBe(200);
  expect(run.body.trace[0]).toMatchObject({ node_id: 'h1', output: { status: 200, body: { auth: 'Bearer [secret:API_TOKEN]' } } });
  expect(run.body.response.body.message).toBe('Upstream said Bearer [secret:API_TOKEN]');

  await cp(`/projects/${projectId}/endpoints/${echo.body.id}/deploy`, { method: 'POST' });
  const answer = await live(0, '/echo?token=' + LIVE_2);
  expect(answer.status).toBe(502);
  expect(answer.body.message).toBe('Upstream said Bearer [secret:API_TOKEN]');
});

test('preview requests are logged under environment=preview only, with their stats', async () => {
  const previewLogs = await waitFor(async () => {
    const page = await cp(`/projects/${projectId}/logs?environment=preview`);
    return page.body.items?.length >= 6 ? page : undefined;
  }, 'six preview requests in the logs', 30_000, 100);
  expect(previewLogs?.body.items.every((item: { environment: string }) => item.environment === 'preview')).toBe(true);
  const liveLogs = await waitFor(async () => {
    const page = await cp(`/projects/${projectId}/logs`);
    return page.body.items?.some((item: { endpoint: string }) => item.endpoint === '/echo') ? page : undefined;
  }, 'the live /echo request in the logs', 30_000, 100);
  expect(liveLogs?.body.items.every((item: { environment: string }) => item.environment === 'live')).toBe(true);
  const echoed = liveLogs!.body.items.find((item: { endpoint: string }) => item.endpoint === '/echo');
  const detail = await cp(`/projects/${projectId}/logs/${echoed.id}`);
  expect(detail.body.message).toBe('Upstream said Bearer [secret:API_TOKEN]');
  expect(detail.body.query).toBe('token=[secret:API_TOKEN]');
  for (const item of [...previewLogs!.body.items, ...liveLogs!.body.items]) await cp(`/projects/${projectId}/logs/${item.id}`);
  const stats = await cp(`/projects/${projectId}/logs/stats?environment=preview`);
  expect(stats.body.totals.count).toBeGreaterThanOrEqual(6);
});

test('deleting a secret a live endpoint reads is refused, and with force the block fails naming it', async () => {
  const refused = await cp(`/projects/${projectId}/secrets/API_TOKEN`, { method: 'DELETE' });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('secret_in_use');
  expect(refused.body.details.map((detail: { name: string }) => detail.name).sort()).toEqual(['Echo', 'Hello']);
  expect((await cp(`/projects/${projectId}/secrets/API_TOKEN?force=true`, { method: 'DELETE' })).status).toBe(204);
  for (const index of [0, 1]) {
    const failed = await live(index, '/hello');
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ code: 'flow_error', message: expect.stringContaining('API_TOKEN') });
  }
});

test('no value appears in any answer, export, version, OpenAPI document, log entry or trace', async () => {
  for (const path of [
    `/projects/${projectId}/secrets`,
    `/projects/${projectId}/endpoints`,
    `/projects/${projectId}/endpoints/${helloId}`,
    `/projects/${projectId}/endpoints/${helloId}/export`,
    `/projects/${projectId}/endpoints/${helloId}/versions`,
    `/projects/${projectId}/openapi.json`,
    `/projects/${projectId}/logs?limit=200`,
    `/projects/${projectId}/logs?limit=200&environment=preview`,
  ])
    expect((await cp(path)).status).toBe(200);
  await live(0, '/_openapi.json');
  const everything = seen.join('\n');
  expect(everything).toContain('{secrets.API_TOKEN}');
  for (const value of VALUES) expect(everything).not.toContain(value);
});
