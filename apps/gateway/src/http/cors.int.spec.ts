import type { PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import type { Gateway } from '../gateway';
import { call, type CallResult, createTopic, deleteTopics, publishedRoute, readEvents, respond, testKafka, TestPublisher, uniqueTopic } from '@flowgate/testing';
import { startGateway } from '../testing/gateway-harness';

const ORIGIN = 'https://app.example.com';
const EXPOSED = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';

/** What a browser sends before `fetch(url, { method, headers: { authorization, … } })`. */
const preflightHeaders = (method: string, requestHeaders?: string): Record<string, string> => ({
  origin: ORIGIN,
  'access-control-request-method': method,
  ...(requestHeaders === undefined ? {} : { 'access-control-request-headers': requestHeaders }),
});

/** What the browser checks before handing a cross-origin answer (and its headers) to the app. */
function expectReadableCrossOrigin(res: CallResult): void {
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
}

/** A 204 the browser accepts for `methods` with `allowHeaders`, cached ten minutes, no credentials. */
function expectPreflightAnswer(res: CallResult, methods: string, allowHeaders: string): void {
  expect({ status: res.status, text: res.text }).toEqual({ status: 204, text: '' });
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-allow-methods']).toBe(methods);
  expect(res.headers['access-control-allow-headers']).toBe(allowHeaders);
  expect(res.headers['access-control-max-age']).toBe('600');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
}

describe('gateway: CORS for browser callers (real Redis and Kafka)', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let open: PublishedProject;
  let locked: PublishedProject;
  let host: string;
  let lockedHost: string;
  const topics: string[] = [];

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    open = publisher.newProject([
      publishedRoute({ path: '/public', blocks: [respond({ ok: true })] }),
      publishedRoute({ path: '/orders', auth: 'user', blocks: [respond({ orders: [] })] }),
      publishedRoute({ path: '/orders', method: 'POST', auth: 'user', blocks: [respond({ created: true }, 201)] }),
      publishedRoute({ path: '/orders', method: 'DELETE', auth: 'admin', blocks: [respond({ deleted: true })] }),
    ]);
    locked = publisher.newProject([publishedRoute({ path: '/private', blocks: [respond({ ok: true })] })], {
      require_auth: true,
      preview_routes: [publishedRoute({ path: '/draft-only', method: 'POST', blocks: [respond({ draft: true })] })],
    });
    await publisher.publish(open);
    await publisher.publish(locked);
    host = `${open.subdomain}.localhost:8080`;
    lockedHost = `${locked.subdomain}.localhost:8080`;
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
    await deleteTopics(testKafka(), topics);
  });

  it('answers a preflight for a user-auth endpoint with 204 and its methods, without a key, at /api/<path> and /<path>', async () => {
    for (const path of ['/api/orders', '/orders', '/orders/']) {
      const res = await call(gateway.url, host, path, { method: 'OPTIONS', headers: preflightHeaders('GET', 'authorization') });
      expectPreflightAnswer(res, 'GET, POST, DELETE', 'authorization');
    }
  });

  it('echoes the requested headers, and allows authorization and content-type when none are named', async () => {
    const named = await call(gateway.url, host, '/api/orders', {
      method: 'OPTIONS',
      headers: preflightHeaders('POST', 'authorization, content-type, x-trace-id'),
    });
    expectPreflightAnswer(named, 'GET, POST, DELETE', 'authorization, content-type, x-trace-id');
    const unnamed = await call(gateway.url, host, '/api/public', { method: 'OPTIONS', headers: preflightHeaders('GET') });
    expectPreflightAnswer(unnamed, 'GET', 'authorization, content-type');
  });

  it('answers the preflight on a Require Authentication project too (browsers send no key on it)', async () => {
    const res = await call(gateway.url, lockedHost, '/api/private', { method: 'OPTIONS', headers: preflightHeaders('GET', 'authorization') });
    expectPreflightAnswer(res, 'GET', 'authorization');
  });

  it('lets the app read a keyed answer and its RateLimit headers; preflights do not use up the rate limit', async () => {
    const key = await publisher.createKey(open.id, { ratelimit_min: 2 });
    for (let i = 0; i < 3; i++) {
      // Even a preflight that carries a key (browsers never do) is answered without touching it.
      const preflight = await call(gateway.url, host, '/api/orders', { method: 'OPTIONS', headers: preflightHeaders('GET'), key: key.key });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['ratelimit-limit']).toBeUndefined();
    }
    const first = await call(gateway.url, host, '/api/orders', { headers: { origin: ORIGIN }, key: key.key });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ orders: [] });
    expectReadableCrossOrigin(first);
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect(first.headers['ratelimit-remaining']).toBe('1');
    const second = await call(gateway.url, host, '/api/orders', { headers: { origin: ORIGIN }, key: key.key });
    expect(second.status).toBe(200);
    expect(second.headers['ratelimit-remaining']).toBe('0');

    const limited = await call(gateway.url, host, '/api/orders', { headers: { origin: ORIGIN }, key: key.key });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ success: false, code: 'rate_limited' });
    expectReadableCrossOrigin(limited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('puts the CORS headers on error answers: 401, 403, 404, 405, and on a public success', async () => {
    const userKey = await publisher.createKey(open.id, { permission: 'user' });
    const cases: [string, { method?: string; key?: string }, number, string | undefined][] = [
      ['/api/orders', {}, 401, 'missing_api_key'],
      ['/api/orders', { key: 'fg_not_a_real_key' }, 401, 'invalid_api_key'],
      ['/api/orders', { method: 'DELETE', key: userKey.key }, 403, 'insufficient_permission'],
      ['/api/nowhere', {}, 404, 'endpoint_not_found'],
      ['/api/public', { method: 'PUT' }, 405, 'method_not_allowed'],
      ['/api/public', {}, 200, undefined],
    ];
    for (const [path, options, status, code] of cases) {
      const res = await call(gateway.url, host, path, { ...options, headers: { origin: ORIGIN } });
      expect({ path, status: res.status, code: (res.json as { code?: string }).code }).toEqual({ path, status, code });
      expectReadableCrossOrigin(res);
    }
    const locked401 = await call(gateway.url, lockedHost, '/api/private', { headers: { origin: ORIGIN } });
    expect(locked401.status).toBe(401);
    expectReadableCrossOrigin(locked401);
  });

  it('adds no CORS headers to requests without Origin', async () => {
    const res = await call(gateway.url, host, '/api/public');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
  });

  it('keeps 404 for a preflight to an unknown path, and 401 before it under Require Authentication', async () => {
    const unknown = await call(gateway.url, host, '/api/nowhere', { method: 'OPTIONS', headers: preflightHeaders('GET') });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'endpoint_not_found' });
    expect(unknown.headers['access-control-allow-methods']).toBeUndefined();
    const hidden = await call(gateway.url, lockedHost, '/api/nowhere', { method: 'OPTIONS', headers: preflightHeaders('GET') });
    expect(hidden.status).toBe(401);
    expect(hidden.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers a plain OPTIONS (no Access-Control-Request-Method) with 204 and Allow, not as a preflight', async () => {
    const plain = await call(gateway.url, host, '/api/public', { method: 'OPTIONS' });
    expect(plain.status).toBe(204);
    expect(plain.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(plain.headers['access-control-allow-methods']).toBeUndefined();
    const withOrigin = await call(gateway.url, host, '/orders', { method: 'OPTIONS', headers: { origin: ORIGIN } });
    expect(withOrigin.status).toBe(204);
    expect(withOrigin.headers.allow).toBe('GET, HEAD, POST, DELETE, OPTIONS');
    expect(withOrigin.headers['access-control-allow-methods']).toBeUndefined();
    expectReadableCrossOrigin(withOrigin);
  });

  it('answers preflights for the admin key API (POST on the collection, DELETE on a key), 404 elsewhere under /admin', async () => {
    const collection = await call(gateway.url, host, '/admin/api-keys', {
      method: 'OPTIONS',
      headers: preflightHeaders('POST', 'authorization, content-type'),
    });
    expectPreflightAnswer(collection, 'POST', 'authorization, content-type');

    const one = await call(gateway.url, host, '/admin/api-keys/3f1c2d4e-0000-4000-8000-000000000000', {
      method: 'OPTIONS',
      headers: preflightHeaders('DELETE'),
    });
    expectPreflightAnswer(one, 'DELETE', 'authorization, content-type');

    for (const path of ['/admin/other', '/admin/api-keys/a/b']) {
      const missing = await call(gateway.url, host, path, { method: 'OPTIONS', headers: preflightHeaders('POST') });
      expect({ path, status: missing.status }).toEqual({ path, status: 404 });
      expectReadableCrossOrigin(missing);
    }

    const unauthenticated = await call(gateway.url, host, '/admin/api-keys', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: '{"name":"web"}',
    });
    expect(unauthenticated.status).toBe(401);
    expectReadableCrossOrigin(unauthenticated);
  });

  it('logs a preflight to a known project like any request, with status 204', async () => {
    const topic = uniqueTopic();
    topics.push(topic);
    await createTopic(testKafka(), topic, 3);
    const logged = await startGateway({ KAFKA_LOG_TOPIC: topic });
    try {
      expect((await call(logged.url, host, '/api/orders', { method: 'OPTIONS', headers: preflightHeaders('POST') })).status).toBe(204);
      expect((await call(logged.url, host, '/api/public', { headers: { origin: ORIGIN } })).status).toBe(200);
      const events = await readEvents(topic, 2);
      expect(events.map((e) => [e.event.project_id, e.event.method, e.event.path, e.event.status, e.event.code]).sort()).toEqual(
        [
          [open.id, 'GET', '/api/public', 200, null],
          [open.id, 'OPTIONS', '/api/orders', 204, null],
        ].sort(),
      );
    } finally {
      await logged.close();
    }
  }, 40_000);

  it('answers every preflight to the preview address alike, so that it tells nothing of which drafts exist', async () => {
    const previewHost = `${locked.subdomain}--preview.localhost:8080`;
    const answers = [];
    for (const path of ['/draft-only', '/api/draft-only', '/private', '/no-such-draft', '/admin/api-keys', '/_openapi.json'])
      answers.push(await call(gateway.url, previewHost, path, { method: 'OPTIONS', headers: preflightHeaders('POST', 'authorization, content-type') }));
    for (const answer of answers) expectPreflightAnswer(answer, 'GET, HEAD, POST, PUT, PATCH, DELETE', 'authorization, content-type');
    const varying = (answer: CallResult) => ({ ...answer.headers, date: undefined, connection: undefined, 'keep-alive': undefined });
    expect(new Set(answers.map((answer) => JSON.stringify(varying(answer)))).size).toBe(1);
    // The request itself still needs a key, whatever the path.
    for (const path of ['/draft-only', '/no-such-draft']) expect((await call(gateway.url, previewHost, path, { method: 'POST', headers: { origin: ORIGIN } })).status).toBe(401);
  });
});
