/**
 * Inbound checks through the whole stack, as a user sets them up: typed query parameters, a
 * body schema and webhook signatures saved through the control plane's REST API, deployed,
 * and enforced by a gateway process before the flow runs (real PostgreSQL, Redis, Kafka).
 * Signatures are built as each provider's documentation describes them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { type AppProcess, call, freePort, request, spawnApp, waitFor, waitReady } from '@flowgate/testing';

jest.setTimeout(180_000);

const suffix = randomBytes(4).toString('hex');
const subdomain = `inb-${suffix}`;
const SIGNING = `whsec_${randomBytes(24).toString('base64')}`;
const apps: AppProcess[] = [];
const CACHE_BOUND = 8 * 1024;
let api: string;
let gateway: string;
/** A second gateway process: cached answers are shared through Redis. */
let gateway2: string;
let token: string;
let projectId: string;

const host = () => `${subdomain}.localhost`;
const cp = (path: string, options: Parameters<typeof request>[1] = {}) => request(`${api}${path}`, { token, ...options });
const flow = (body: unknown) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'r1', type: 'respond', position: { x: 250, y: 0 }, config: { status: 200, body } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'r1' }],
});

/** Saves and deploys an endpoint; answers the Save's body (its diagnostics included). */
async function deployed(settings: Record<string, unknown>, answer: unknown) {
  const created = await cp(`/projects/${projectId}/endpoints`, { method: 'POST', body: { auth: 'none', query_params: [], ...settings, flow: flow(answer) } });
  expect(created).toMatchObject({ status: 201, body: { diagnostics: [] } });
  expect((await cp(`/projects/${projectId}/endpoints/${created.body.id}/deploy`, { method: 'POST' })).status).toBe(200);
  return created.body;
}

const hmacHex = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');
const post = (path: string, body: string, headers: Record<string, string>) =>
  call(gateway, host(), path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  const [cpPort, cpInternalPort, gw, gw2, ingestPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const shared = {
    KAFKA_LOG_TOPIC: `flowgate.inbound.${suffix}`,
    KAFKA_LOG_DLQ_TOPIC: `flowgate.inbound.${suffix}.dlq`,
    GATEWAY_PUBLIC_URL: `http://{subdomain}.localhost:${gw}`,
    CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${cpInternalPort}`,
  };
  const controlPlane = spawnApp('control-plane', { ...shared, CONTROL_PLANE_PORT: String(cpPort), CONTROL_PLANE_INTERNAL_PORT: String(cpInternalPort) });
  const ingest = spawnApp('log-ingest', { ...shared, LOG_INGEST_PORT: String(ingestPort), LOG_INGEST_GROUP: `inbound-${suffix}` });
  // A small cache bound, so that eviction is seen with a few answers.
  const gatewayEnv = { ...shared, GATEWAY_HOST: '127.0.0.1', PROJECT_MAX_CACHE_BYTES: String(CACHE_BOUND) };
  const gatewayApp = spawnApp('gateway', { ...gatewayEnv, GATEWAY_PORT: String(gw) });
  const gatewayApp2 = spawnApp('gateway', { ...gatewayEnv, GATEWAY_PORT: String(gw2) });
  apps.push(controlPlane, ingest, gatewayApp, gatewayApp2);
  await Promise.all([
    waitReady(controlPlane, `http://127.0.0.1:${cpPort}/readyz`),
    waitReady(ingest, `http://127.0.0.1:${ingestPort}/readyz`),
    waitReady(gatewayApp, `http://127.0.0.1:${gw}/_readyz`),
    waitReady(gatewayApp2, `http://127.0.0.1:${gw2}/_readyz`),
  ]);
  gateway2 = `http://127.0.0.1:${gw2}`;
  api = `http://127.0.0.1:${cpPort}/v1`;
  gateway = `http://127.0.0.1:${gw}`;
  token = (await request(`${api}/auth/signup`, { method: 'POST', body: { email: `inbound-${suffix}@example.com`, password: 'correct horse battery' } })).body.token;
  projectId = (await cp('/projects', { method: 'POST', body: { name: 'Inbound', subdomain } })).body.id;
  expect((await cp(`/projects/${projectId}/secrets/SIGNING`, { method: 'PUT', body: { value: SIGNING } })).status).toBe(201);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
});

describe('typed query parameters', () => {
  beforeAll(async () => {
    const query_params = [
      { key: 'limit', type: 'integer', required: true },
      { key: 'ratio', type: 'number', default: '0.5' },
      { key: 'active', type: 'boolean' },
      { key: 'sort', type: 'enum', values: ['asc', 'desc'], default: 'asc' },
      { key: 'name' },
    ];
    await deployed({ name: 'Search', method: 'GET', path: '/search', query_params }, { limit: '{params.limit}', ratio: '{params.ratio}', active: '{params.active}', sort: '{params.sort}', name: '{params.name}' });
  });

  it('gives the flow typed values (and typed defaults)', async () => {
    const answer = await call(gateway, host(), '/search?limit=5&active=true&name=7');
    expect(answer).toMatchObject({ status: 200, json: { limit: 5, ratio: 0.5, active: true, sort: 'asc', name: '7' } });
  });

  it('refuses a missing required parameter and wrongly typed ones with 400 validation_failed naming each', async () => {
    const answer = await call(gateway, host(), '/search?ratio=abc&active=yes&sort=up');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, code: 'validation_failed' });
    expect((answer.json as { details: unknown[] }).details).toEqual([
      { path: 'query.limit', message: 'is required' },
      { path: 'query.ratio', message: 'must be a number' },
      { path: 'query.active', message: 'must be true or false' },
      { path: 'query.sort', message: 'must be one of asc, desc' },
    ]);
  });

  it('refuses a Save whose default is not of its type, naming the field', async () => {
    const saved = await cp(`/projects/${projectId}/endpoints`, {
      method: 'POST',
      body: { name: 'Bad', method: 'GET', path: '/bad-default', auth: 'none', query_params: [{ key: 'n', type: 'integer', default: 'ten' }], flow: flow({}) },
    });
    expect(saved.status).toBe(400);
    expect(JSON.stringify(saved.body.details)).toContain('query_params.0.default');
  });
});

describe('body schema', () => {
  beforeAll(async () => {
    const body_schema = {
      type: 'object',
      required: ['customer', 'items'],
      additionalProperties: false,
      properties: {
        customer: { type: 'string', minLength: 1, pattern: '^[a-z0-9-]+$' },
        items: { type: 'array', items: { type: 'object', required: ['qty'], properties: { qty: { type: 'integer', minimum: 1 } } } },
      },
    };
    await deployed({ name: 'Order', method: 'POST', path: '/orders', body_schema }, { customer: '{body.customer}', first: '{body.items.0.qty}' });
  });

  it('runs the flow with a body that matches', async () => {
    const answer = await post('/orders', JSON.stringify({ customer: 'acme-1', items: [{ qty: 2 }] }), {});
    expect(answer).toMatchObject({ status: 200, json: { customer: 'acme-1', first: 2 } });
  });

  it('refuses a body that does not match with 400 validation_failed and a path per problem', async () => {
    const answer = await post('/orders', JSON.stringify({ customer: 'ACME!', items: [{ qty: 0 }, {}], extra: 1 }), {});
    expect(answer.status).toBe(400);
    const details = (answer.json as { details: Array<{ path: string }> }).details.map((detail) => detail.path).sort();
    expect(details).toEqual(['body.customer', 'body.extra', 'body.items.0.qty', 'body.items.1.qty']);
  });

  it('refuses at Save a schema a request could not be checked with cheaply (a backtracking pattern) or on a GET', async () => {
    const backtracking = await cp(`/projects/${projectId}/endpoints`, {
      method: 'POST',
      body: { name: 'Bad', method: 'POST', path: '/bad-schema', auth: 'none', query_params: [], body_schema: { type: 'string', pattern: '(a+)+\\1' }, flow: flow({}) },
    });
    expect(backtracking.status).toBe(400);
    expect(JSON.stringify(backtracking.body.details)).toContain('body_schema.pattern');
    const onGet = await cp(`/projects/${projectId}/endpoints`, {
      method: 'POST',
      body: { name: 'Get', method: 'GET', path: '/get-schema', auth: 'none', query_params: [], body_schema: { type: 'object' }, flow: flow({}) },
    });
    expect(onGet.body.diagnostics).toEqual([expect.objectContaining({ code: 'body_schema_without_body', severity: 'error' })]);
  });
});

describe('webhook signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded' });
  const OTHER = `whsec_${randomBytes(24).toString('base64')}`;
  const schemes: Array<{ scheme: string; header?: string; sign: (raw: string, at: number, secret?: string) => Record<string, string> }> = [
    { scheme: 'stripe', sign: (raw, at, secret = SIGNING) => ({ 'stripe-signature': `t=${at},v1=${hmacHex(secret, `${at}.${raw}`)}` }) },
    { scheme: 'github', sign: (raw, _at, secret = SIGNING) => ({ 'x-hub-signature-256': `sha256=${hmacHex(secret, raw)}` }) },
    { scheme: 'slack', sign: (raw, at, secret = SIGNING) => ({ 'x-slack-request-timestamp': String(at), 'x-slack-signature': `v0=${hmacHex(secret, `v0:${at}:${raw}`)}` }) },
    {
      scheme: 'standard_webhooks',
      sign: (raw, at, secret = SIGNING) => {
        const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
        const signature = createHmac('sha256', key).update(`msg_1.${at}.${raw}`).digest('base64');
        return { 'webhook-id': 'msg_1', 'webhook-timestamp': String(at), 'webhook-signature': `v1,${signature}` };
      },
    },
    { scheme: 'hmac_sha256', header: 'X-Signature', sign: (raw, _at, secret = SIGNING) => ({ 'x-signature': hmacHex(secret, raw) }) },
  ];

  beforeAll(async () => {
    for (const { scheme, header } of schemes) {
      await deployed({ name: scheme, method: 'POST', path: `/hooks/${scheme}`, signature: { scheme, secret: 'SIGNING', header, tolerance_s: 300 } }, { got: '{body.type}' });
    }
  });

  it.each(schemes)('$scheme: a correctly signed body runs the flow', async ({ scheme, sign }) => {
    const answer = await post(`/hooks/${scheme}`, body, sign(body, now()));
    expect(answer).toMatchObject({ status: 200, json: { got: 'payment_intent.succeeded' } });
  });

  it.each(schemes)('$scheme: a changed body, a missing signature and another secret are refused with 401 invalid_signature', async ({ scheme, sign }) => {
    const tampered = await post(`/hooks/${scheme}`, body.replace('evt_1', 'evt_2'), sign(body, now()));
    expect(tampered).toMatchObject({ status: 401, json: { success: false, code: 'invalid_signature' } });
    expect((await post(`/hooks/${scheme}`, body, {})).status).toBe(401);
    expect((await post(`/hooks/${scheme}`, body, sign(body, now(), OTHER))).status).toBe(401);
    expect(JSON.stringify(tampered.json)).not.toContain(SIGNING);
  });

  it.each(schemes.filter(({ scheme }) => ['stripe', 'slack', 'standard_webhooks'].includes(scheme)))(
    '$scheme: a signature older than the tolerance is refused as a replay',
    async ({ scheme, sign }) => {
      const answer = await post(`/hooks/${scheme}`, body, sign(body, now() - 3600));
      expect(answer).toMatchObject({ status: 401, json: { code: 'invalid_signature', message: expect.stringContaining('timestamp') } });
    },
  );

  it('refuses at Save a signature whose secret the project does not have', async () => {
    const saved = await cp(`/projects/${projectId}/endpoints`, {
      method: 'POST',
      body: { name: 'Nope', method: 'POST', path: '/hooks/nope', auth: 'none', query_params: [], signature: { scheme: 'github', secret: 'MISSING' }, flow: flow({}) },
    });
    expect(saved.body.diagnostics).toEqual([expect.objectContaining({ code: 'unknown_secret', field: 'signature.secret' })]);
  });
});

test('the OpenAPI document describes typed parameters, the body schema and the refusals', async () => {
  const answer = await call(gateway, host(), '/_openapi.json');
  expect(answer.status).toBe(200);
  const doc = answer.json as { paths: Record<string, Record<string, { parameters?: unknown[]; requestBody?: { required: boolean; content: Record<string, { schema: unknown }> }; responses: Record<string, unknown> }>> };
  const search = doc.paths['/search'].get;
  expect(search.parameters).toContainEqual({ name: 'limit', in: 'query', required: true, schema: { type: 'integer' } });
  expect(search.parameters).toContainEqual({ name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } });
  expect(search.parameters).toContainEqual({ name: 'ratio', in: 'query', required: false, schema: { type: 'number', default: 0.5 } });
  expect(search.responses).toHaveProperty('400');
  const orders = doc.paths['/orders'].post;
  expect(orders.requestBody?.required).toBe(true);
  expect(orders.requestBody?.content['application/json'].schema).toMatchObject({ type: 'object', required: ['customer', 'items'] });
  expect(doc.paths['/hooks/github'].post.responses).toHaveProperty('401');
});

describe('request log details', () => {
  it('keeps the headers with the key redacted, the first 4,096 characters of the body with secret values masked, and the sizes', async () => {
    await deployed({ name: 'Echo', method: 'POST', path: '/echo', auth: 'user' }, { ok: true });
    const echoKey = (await cp(`/projects/${projectId}/api-keys`, { method: 'POST', body: { name: 'echo', permission: 'user', ratelimit_min: 100 } })).body.key as string;
    const body = JSON.stringify({ token: SIGNING, pad: 'p'.repeat(10_000) });
    const answer = await call(gateway, host(), '/echo?trace=1', {
      method: 'POST',
      key: echoKey,
      body,
      headers: { 'content-type': 'application/json', 'x-upstream-auth': `Bearer ${SIGNING}`, 'x-copy-of-key': echoKey, cookie: 'session=abc' },
    });
    expect(answer.status).toBe(200);
    const entry = await waitFor(async () => {
      const { body: page } = await cp(`/projects/${projectId}/logs?endpoint=/echo`);
      const [row] = page.items as Array<{ id: string; time: string }>;
      return row === undefined ? undefined : (await cp(`/projects/${projectId}/logs/${row.id}?time=${encodeURIComponent(row.time)}`)).body;
    }, 'the POST /echo in the logs', 60_000, 200);
    const headers = new Map((entry.details.headers as Array<{ name: string; value: string }>).map((h) => [h.name, h.value]));
    expect(headers.get('authorization')).toBe('[redacted]');
    expect(headers.get('cookie')).toBe('[redacted]');
    expect(headers.get('x-copy-of-key')).toBe('[redacted]');
    expect(headers.get('x-upstream-auth')).toBe('Bearer [secret:SIGNING]');
    expect(headers.get('content-type')).toBe('application/json');
    expect(entry.details).toMatchObject({ body_bytes: Buffer.byteLength(body), body_truncated: true, response_bytes: Buffer.byteLength(answer.text) });
    // The body's first 4,096 characters, the secret's value in them masked.
    const kept = body.slice(0, 4096);
    expect(entry.details.body).toBe(kept.replace(SIGNING, '[secret:SIGNING]'));
    expect(entry.query).toBe('trace=1');
    const everything = JSON.stringify(entry);
    expect(everything).not.toContain(SIGNING);
    expect(everything).not.toContain(echoKey);
  });
});

describe('response caching', () => {
  let cachedId: string;
  let key: string;
  /** Each run of the flow answers a fresh `{uuid}`: the same one twice means the second was not run. */
  const get = (base: string, path: string, headers: Record<string, string> = {}) => call(base, host(), path, { headers });
  const runOf = (answer: { json: unknown }) => (answer.json as { run: string }).run;

  beforeAll(async () => {
    const body = await deployed(
      { name: 'Cached', method: 'GET', path: '/cached', query_params: [{ key: 'q' }], cache: { ttl_s: 600, vary_query: true, vary_headers: ['Accept-Language'], per_key: false } },
      { run: '{uuid}', q: '{params.q}' },
    );
    cachedId = body.id;
    await deployed({ name: 'Per key', method: 'GET', path: '/mine', auth: 'user', cache: { ttl_s: 600, vary_query: false, vary_headers: [], per_key: true } }, { run: '{uuid}' });
    await deployed({ name: 'Big', method: 'GET', path: '/big', query_params: [{ key: 'n' }], cache: { ttl_s: 600 } }, { run: '{uuid}', pad: 'x'.repeat(3000), n: '{params.n}' });
    key = (await cp(`/projects/${projectId}/api-keys`, { method: 'POST', body: { name: 'limited', permission: 'user', ratelimit_min: 3 } })).body.key;
  });

  it('answers a second request from the cache on another gateway (X-Cache, Age), varied by query and header', async () => {
    const miss = await get(gateway, '/cached?q=1');
    expect(miss).toMatchObject({ status: 200, headers: expect.objectContaining({ 'x-cache': 'MISS' }) });
    const hit = await get(gateway2, '/cached?q=1');
    expect(hit.headers).toMatchObject({ 'x-cache': 'HIT', age: expect.stringMatching(/^\d+$/) });
    expect(runOf(hit)).toBe(runOf(miss));
    expect(runOf(await get(gateway2, '/cached?q=2'))).not.toBe(runOf(miss));
    expect(runOf(await get(gateway, '/cached?q=1', { 'accept-language': 'fr' }))).not.toBe(runOf(miss));
  });

  it("logs the second answer of a cached GET as a cache hit, the first as a miss, with the answer's size", async () => {
    const miss = await get(gateway, '/cached?q=logged');
    const hit = await get(gateway2, '/cached?q=logged');
    expect([miss.headers['x-cache'], hit.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    const logged = await waitFor(async () => {
      const { body } = await cp(`/projects/${projectId}/logs?endpoint=/cached&limit=200`);
      const rows = (body.items as Array<{ id: string; cache: string | null; time: string }>).filter((item) => item.cache !== null);
      const ours = await Promise.all(rows.map(async (row) => (await cp(`/projects/${projectId}/logs/${row.id}?time=${encodeURIComponent(row.time)}`)).body));
      const withQuery = ours.filter((entry) => entry.query === 'q=logged');
      return withQuery.length === 2 ? withQuery : undefined;
    }, 'both requests of /cached?q=logged in the logs', 60_000, 200);
    // Newest first: the hit, then the miss; both answers are the same bytes.
    expect(logged.map((entry) => entry.cache)).toEqual(['hit', 'miss']);
    for (const entry of logged) expect(entry.details.response_bytes).toBe(Buffer.byteLength(hit.text));
    const hits = await cp(`/projects/${projectId}/logs?endpoint=/cached&cache=hit&limit=200`);
    expect(hits.body.items.map((item: { id: string }) => item.id)).toContain(logged[0].id);
    expect(hits.body.items.map((item: { id: string }) => item.id)).not.toContain(logged[1].id);
  });

  it('ends the cached answers on every gateway when the endpoint is deployed again, before the Deploy answers', async () => {
    const before = runOf(await get(gateway, '/cached?q=dep'));
    expect(runOf(await get(gateway2, '/cached?q=dep'))).toBe(before);
    const saved = await cp(`/projects/${projectId}/endpoints/${cachedId}`, {
      method: 'PUT',
      body: { name: 'Cached', method: 'GET', path: '/cached', auth: 'none', query_params: [{ key: 'q' }], cache: { ttl_s: 600, vary_query: true, vary_headers: [], per_key: false }, flow: flow({ run: '{uuid}', v: 2 }) },
    });
    expect(saved.status).toBe(200);
    expect((await cp(`/projects/${projectId}/endpoints/${cachedId}/deploy`, { method: 'POST' })).status).toBe(200);
    for (const base of [gateway, gateway2]) {
      const answer = await get(base, '/cached?q=dep');
      expect(runOf(answer)).not.toBe(before);
    }
    // Rolled back to version 1: not the answers cached before the Deploy either.
    const rolled = await cp(`/projects/${projectId}/endpoints/${cachedId}/versions/1/deploy`, { method: 'POST' });
    expect(rolled.status).toBe(200);
    const afterRollback = await get(gateway2, '/cached?q=dep');
    expect(afterRollback.json).not.toHaveProperty('v');
    expect(runOf(afterRollback)).not.toBe(before);
  });

  it('keeps one cache per key when asked, and counts hits against the key\'s rate limit', async () => {
    const first = await call(gateway, host(), '/mine', { key });
    expect(first).toMatchObject({ status: 200, headers: expect.objectContaining({ 'x-cache': 'MISS' }) });
    const second = await call(gateway2, host(), '/mine', { key });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(runOf(second)).toBe(runOf(first));
    expect((await call(gateway, host(), '/mine', { key })).status).toBe(200);
    const limited = await call(gateway2, host(), '/mine', { key });
    expect(limited).toMatchObject({ status: 429, json: { code: 'rate_limited' } });
    expect((await call(gateway, host(), '/mine')).status).toBe(401);
  });

  it("keeps a project's cache within its bound, the least recently used answer out first", async () => {
    // Each answer is ~3 KiB; the bound holds two of them.
    const first = runOf(await get(gateway, '/big?n=1'));
    await get(gateway, '/big?n=2');
    expect(runOf(await get(gateway2, '/big?n=1'))).toBe(first); // n=1 used again: n=2 is now the oldest
    await get(gateway, '/big?n=3');
    expect((await get(gateway2, '/big?n=1')).headers['x-cache']).toBe('HIT');
    expect((await get(gateway2, '/big?n=2')).headers['x-cache']).toBe('MISS');
  });
});
