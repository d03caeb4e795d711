import { apiKeyRecordKey, formatApiKey, rateLimitKey, type PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { call, publishedRoute, respond, type TestKey, TestPublisher } from '@flowgate/testing';

describe('gateway: API keys, permissions and rate limits (real Redis)', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let open: PublishedProject;
  let locked: PublishedProject;
  let userKey: TestKey;
  let adminKey: TestKey;
  let lockedKey: TestKey;
  const hostOf = (project: PublishedProject) => `${project.subdomain}.localhost`;

  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    open = publisher.newProject([
      publishedRoute({ path: '/public', blocks: [respond({ ok: 'public' })] }),
      publishedRoute({ path: '/members', auth: 'user', blocks: [respond({ ok: 'user' })] }),
      publishedRoute({ path: '/staff', auth: 'admin', blocks: [respond({ ok: 'admin' })] }),
    ]);
    locked = publisher.newProject([publishedRoute({ path: '/public', blocks: [respond({ ok: 'locked' })] })], { require_auth: true });
    await publisher.publish(open);
    await publisher.publish(locked);
    userKey = await publisher.createKey(open.id, { permission: 'user' });
    adminKey = await publisher.createKey(open.id, { permission: 'admin' });
    lockedKey = await publisher.createKey(locked.id, { permission: 'user' });
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
  });

  const get = (project: PublishedProject, path: string, key?: string, headers?: Record<string, string>) =>
    call(gateway.url, hostOf(project), path, { key, headers });
  const codeOf = (res: { json: unknown }) => (res.json as { code?: string }).code;

  it('applies the auth matrix of none / user / admin endpoints', async () => {
    const unknownKey = formatApiKey((n) => randomBytes(n));
    const malformed = 'fg_' + 'A'.repeat(38);
    const cases: [string, string | undefined, number, string | undefined][] = [
      ['/public', undefined, 200, undefined],
      ['/members', undefined, 401, 'missing_api_key'],
      ['/members', malformed, 401, 'invalid_api_key'],
      ['/members', 'not-a-key', 401, 'invalid_api_key'],
      ['/members', unknownKey, 401, 'invalid_api_key'],
      ['/members', lockedKey.key, 401, 'invalid_api_key'], // a key of another project is simply invalid here
      ['/members', userKey.key, 200, undefined],
      ['/members', adminKey.key, 200, undefined],
      ['/staff', undefined, 401, 'missing_api_key'],
      ['/staff', userKey.key, 403, 'insufficient_permission'],
      ['/staff', lockedKey.key, 401, 'invalid_api_key'],
      ['/staff', adminKey.key, 200, undefined],
    ];
    for (const [path, key, status, code] of cases) {
      const res = await get(open, path, key);
      expect({ path, key, status: res.status, code: codeOf(res) }).toEqual({ path, key, status, code });
      if (status >= 400) expect(res.json).toEqual({ success: false, code, message: expect.any(String) });
    }
  });

  it('refuses other authorization schemes and empty bearer tokens', async () => {
    expect(codeOf(await get(open, '/members', undefined, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }))).toBe(
      'invalid_api_key',
    );
    expect(codeOf(await get(open, '/members', undefined, { authorization: 'Bearer ' }))).toBe('missing_api_key');
    expect((await get(open, '/members', undefined, { authorization: `bearer ${userKey.key}` })).status).toBe(200);
  });

  it('leaves public endpoints of an open project public, whatever Authorization says', async () => {
    expect((await get(open, '/public', 'garbage')).status).toBe(200);
  });

  it('requires a key of the project everywhere when Require Authentication is on', async () => {
    expect(codeOf(await get(locked, '/public'))).toBe('missing_api_key');
    expect(codeOf(await get(locked, '/public', userKey.key))).toBe('invalid_api_key');
    expect((await get(locked, '/public', lockedKey.key)).json).toEqual({ ok: 'locked' });
    // Paths are not revealed without a key: 401 first, 404 once authenticated.
    expect(codeOf(await get(locked, '/nothing-here'))).toBe('missing_api_key');
    expect(codeOf(await get(locked, '/nothing-here', lockedKey.key))).toBe('endpoint_not_found');
  });

  it('sends RateLimit-* on every keyed response, counts down, and records last use', async () => {
    const key = await publisher.createKey(open.id, { ratelimit_min: 5 });
    const first = await get(open, '/members', key.key);
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('4');
    const reset = Number(first.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    const second = await get(open, '/members', key.key);
    expect(second.headers['ratelimit-remaining']).toBe('3');
    const forbidden = await get(open, '/staff', key.key);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['ratelimit-limit']).toBe('5');
    const lastUsed = Number(await redis.hget(apiKeyRecordKey(key.projectId, key.hash), 'last_used_ms'));
    expect(Math.abs(lastUsed - Date.now())).toBeLessThan(60_000);
    const unkeyed = await get(open, '/public');
    expect(unkeyed.headers['ratelimit-limit']).toBeUndefined();
  });

  it('refuses requests over the limit with 429 rate_limited and Retry-After', async () => {
    const key = await publisher.createKey(open.id, { ratelimit_min: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(open, '/members', key.key)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await get(open, '/members', key.key);
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ success: false, code: 'rate_limited', message: expect.any(String) });
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const metrics = await call(gateway.url, 'x', '/_metrics');
    expect(metrics.text).toMatch(/flowgate_gateway_rate_limited_total [1-9]/);
  });

  it('decides a concurrent burst of several keys exactly, each key against its own limit', async () => {
    // Requests of one loop turn are checked in one script call (api-key-verifier.ts): the
    // answers must be those of one call per request, in any order.
    const five = await publisher.createKey(open.id, { ratelimit_min: 5 });
    const three = await publisher.createKey(open.id, { ratelimit_min: 3 });
    const burst = await Promise.all(
      Array.from({ length: 36 }, (_, i) => {
        if (i % 3 === 0) return get(open, '/members', five.key).then((res) => ({ key: 'five', res }));
        if (i % 3 === 1) return get(open, '/members', three.key).then((res) => ({ key: 'three', res }));
        // Forbidden (a user key on an admin endpoint): answered 403 and not counted.
        return get(open, '/staff', three.key).then((res) => ({ key: 'staff', res }));
      }),
    );
    const answers = (key: string) => burst.filter((sent) => sent.key === key).map((sent) => sent.res);
    const accepted = (key: string) => answers(key).filter((res) => res.status === 200);
    expect(accepted('five')).toHaveLength(5);
    expect(accepted('three')).toHaveLength(3);
    expect(answers('five').filter((res) => res.status === 429)).toHaveLength(7);
    expect(answers('three').filter((res) => res.status === 429)).toHaveLength(9);
    expect(answers('staff').map((res) => res.status)).toEqual(Array(12).fill(403));
    const remaining = (key: string) => accepted(key).map((res) => Number(res.headers['ratelimit-remaining'])).sort();
    expect(remaining('five')).toEqual([0, 1, 2, 3, 4]);
    expect(remaining('three')).toEqual([0, 1, 2]);
    expect(await redis.llen(rateLimitKey(open.id, five.hash))).toBe(5);
    expect(await redis.llen(rateLimitKey(open.id, three.hash))).toBe(3);
  });

  it('slides: requests older than 60 s free their slots, younger ones still count', async () => {
    const key = await publisher.createKey(open.id, { ratelimit_min: 3 });
    const [seconds] = await redis.time();
    const now = Number(seconds) * 1000;
    // Three accepted requests 61 s ago (newest first, as the gateway writes them): all outside the window.
    await redis.lpush(rateLimitKey(key.projectId, key.hash), now - 61_500, now - 61_200, now - 61_000);
    const afterOld = await get(open, '/members', key.key);
    expect(afterOld.status).toBe(200);
    expect(afterOld.headers['ratelimit-remaining']).toBe('2');

    // Two more 30 s ago fill the window with the request just made: the next one waits ~30 s.
    await redis.rpush(rateLimitKey(key.projectId, key.hash), now - 30_000, now - 30_000);
    const limited = await get(open, '/members', key.key);
    expect(limited.status).toBe(429);
    // ~30 s, less the seconds this test itself took since `now` (a busy machine takes more).
    const [secondsAfter] = await redis.time();
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(30 - (Number(secondsAfter) - Number(seconds)) - 1);
    expect(retryAfter).toBeLessThanOrEqual(31);
  });

  it('fails a deleted key on the very next request', async () => {
    const key = await publisher.createKey(open.id);
    expect((await get(open, '/members', key.key)).status).toBe(200);
    await publisher.deleteKey(key);
    expect(codeOf(await get(open, '/members', key.key))).toBe('invalid_api_key');
  });
});
