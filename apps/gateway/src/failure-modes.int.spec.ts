import type { PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import type { Gateway } from './gateway';
import { startGateway } from './testing/gateway-harness';
import { call, freePort, PrivateRedis, publishedRoute, respond, type TestKey, TestPublisher, waitFor } from '@flowgate/testing';

const codeOf = (res: { json: unknown }) => (res.json as { code?: string }).code;
const metric = async (gateway: Gateway, name: string): Promise<number> => {
  const text = (await call(gateway.url, 'x', '/_metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.split(' ')[1]);
};

describe('gateway: Redis down', () => {
  let privateRedis: PrivateRedis;
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let project: PublishedProject;
  let key: TestKey;
  let host: string;

  beforeAll(async () => {
    privateRedis = await PrivateRedis.start();
    redis = new Redis(privateRedis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
    redis.on('error', () => undefined);
    publisher = new TestPublisher(redis);
    project = publisher.newProject([
      publishedRoute({ path: '/open', blocks: [respond({ open: true })] }),
      publishedRoute({ path: '/keyed', auth: 'user', blocks: [respond({ keyed: true })] }),
      { ...publishedRoute({ path: '/cached', blocks: [respond({ run: '{uuid}' })] }), cache: { ttl_s: 600, vary_query: true, vary_headers: [], per_key: false } },
    ]);
    await publisher.publish(project);
    key = await publisher.createKey(project.id);
    host = `${project.subdomain}.localhost`;
    gateway = await startGateway({ REDIS_URL: privateRedis.url });
  }, 30_000);

  afterAll(async () => {
    await gateway?.close();
    redis?.disconnect();
    await privateRedis?.down();
  });

  it('keeps serving public endpoints from cache, refuses keyed requests with 503, and recovers', async () => {
    expect((await call(gateway.url, host, '/open')).status).toBe(200);
    expect((await call(gateway.url, host, '/keyed', { key: key.key })).status).toBe(200);
    const kept = await call(gateway.url, host, '/cached');
    expect(kept.headers['x-cache']).toBe('MISS');

    await privateRedis.down();

    // The answers this gateway kept are still its own to give; a new variant runs the flow uncached.
    const hit = await call(gateway.url, host, '/cached');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.json).toEqual(kept.json);
    const other = await call(gateway.url, host, '/cached?q=2');
    expect(other).toMatchObject({ status: 200, headers: expect.objectContaining({ 'x-cache': 'MISS' }) });
    expect(other.json).not.toEqual(kept.json);

    for (let i = 0; i < 3; i++) expect((await call(gateway.url, host, '/api/open')).json).toEqual({ open: true });
    const keyed = await call(gateway.url, host, '/keyed', { key: key.key });
    expect(keyed.status).toBe(503);
    expect(keyed.json).toEqual({ success: false, code: 'unavailable', message: expect.any(String) });
    // Malformed keys and missing keys need no Redis: they are still refused as such.
    expect(codeOf(await call(gateway.url, host, '/keyed', { key: 'fg_' + 'A'.repeat(38) }))).toBe('invalid_api_key');
    expect(codeOf(await call(gateway.url, host, '/keyed'))).toBe('missing_api_key');
    // A project this gateway never loaded cannot be resolved.
    expect(codeOf(await call(gateway.url, 'never-seen.localhost', '/open'))).toBe('unavailable');
    expect((await call(gateway.url, 'x', '/_readyz')).json).toMatchObject({ redis: 'down' });

    await privateRedis.up(); // empty: the control plane would republish everything
    await publisher.publish(project);
    const fresh = await publisher.createKey(project.id);
    await waitFor(async () => (await call(gateway.url, host, '/keyed', { key: fresh.key })).status === 200, 'keyed requests after Redis is back', 10_000);
  }, 30_000);
});

describe('gateway: Kafka down', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let project: PublishedProject;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    project = publisher.newProject([publishedRoute({ path: '/ping', blocks: [respond({ pong: true })] })]);
    await publisher.publish(project);
  });

  afterAll(async () => {
    await publisher.cleanup();
    redis.disconnect();
  });

  it('keeps serving and buffers the request log while no broker answers', async () => {
    const gateway = await startGateway({ KAFKA_BROKERS: `127.0.0.1:${await freePort()}` }, { logFlushTimeoutMs: 200 });
    try {
      for (let i = 0; i < 25; i++) expect((await call(gateway.url, `${project.subdomain}.localhost`, '/ping')).status).toBe(200);
      // The worker thread reports its buffer within 100 ms.
      await waitFor(async () => (await metric(gateway, 'flowgate_gateway_log_buffer_depth')) === 25, 'a buffer depth of 25');
      expect(await metric(gateway, 'flowgate_gateway_log_events_dropped')).toBe(0);
      expect((await call(gateway.url, 'x', '/_readyz')).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('drops and counts events beyond GATEWAY_LOG_BUFFER_MAX instead of growing', async () => {
    const gateway = await startGateway(
      { KAFKA_BROKERS: `127.0.0.1:${await freePort()}`, GATEWAY_LOG_BUFFER_MAX: '10' },
      { logFlushTimeoutMs: 200 },
    );
    try {
      for (let i = 0; i < 25; i++) expect((await call(gateway.url, `${project.subdomain}.localhost`, '/ping')).status).toBe(200);
      await waitFor(async () => (await metric(gateway, 'flowgate_gateway_log_events_dropped')) === 15, '15 dropped events');
      expect(await metric(gateway, 'flowgate_gateway_log_buffer_depth')).toBe(10);
    } finally {
      await gateway.close();
    }
  });
});

describe('gateway: control plane down', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    gateway = await startGateway({ CONTROL_PLANE_INTERNAL_URL: `http://127.0.0.1:${await freePort()}` });
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
  });

  it('keeps serving endpoints; the admin key API answers 503 unavailable', async () => {
    const project = publisher.newProject([publishedRoute({ path: '/up', auth: 'user', blocks: [respond({ up: true })] })]);
    await publisher.publish(project);
    const admin = await publisher.createKey(project.id, { permission: 'admin' });
    const host = `${project.subdomain}.localhost`;
    expect((await call(gateway.url, host, '/up', { key: admin.key })).json).toEqual({ up: true });
    const created = await call(gateway.url, host, '/admin/api-keys', {
      method: 'POST',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci', ratelimit_min: 10, permission: 'user' }),
    });
    expect(created.status).toBe(503);
    expect(created.json).toEqual({ success: false, code: 'unavailable', message: expect.any(String) });
    expect((await call(gateway.url, host, '/up', { key: admin.key })).status).toBe(200);
  });
});
