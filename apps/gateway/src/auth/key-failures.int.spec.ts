import { formatApiKey, type PublishedProject } from '@flowgate/contracts';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';
import { call, publishedRoute, respond, type TestKey, TestPublisher } from '@flowgate/testing';

const LIMIT = 5;

/** Wrong API keys through a real gateway and Redis: counted per address and per project, then 429 before any lookup. */
describe('gateway: wrong API keys are throttled (real Redis)', () => {
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    publisher = new TestPublisher(redis);
    gateway = await startGateway({ KEY_FAILURES_PER_MINUTE: String(LIMIT), GATEWAY_TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await gateway?.close();
    await publisher.cleanup();
    redis.disconnect();
  });

  /** A project with one keyed endpoint (and a preview draft), and a key of it. */
  async function keyedProject(): Promise<{ project: PublishedProject; key: TestKey; host: string }> {
    const project = publisher.newProject([publishedRoute({ path: '/members', auth: 'user', blocks: [respond({ ok: true })] })]);
    await publisher.publish(project);
    return { project, key: await publisher.createKey(project.id), host: `${project.subdomain}.localhost` };
  }
  const address = () => `198.51.100.${1 + (randomBytes(1)[0]! % 250)}-${randomBytes(3).toString('hex')}`;
  const wrongKey = () => formatApiKey((size) => randomBytes(size));
  const get = (host: string, from: string, key: string, path = '/members') =>
    call(gateway.url, host, path, { key, method: path.startsWith('/admin/') ? 'POST' : 'GET', headers: { 'x-forwarded-for': `forged, ${from}` } });

  it(`answers 401 to the first ${LIMIT} wrong keys of an address, then 429 with Retry-After — even to a valid key it never checked`, async () => {
    const { host, key } = await keyedProject();
    const other = await keyedProject();
    const from = address();
    expect((await get(host, address(), key.key)).status).toBe(200);
    for (let i = 0; i < LIMIT; i++) expect((await get(host, from, wrongKey())).json).toMatchObject({ code: 'invalid_api_key' });
    const over = await get(host, from, wrongKey());
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ success: false, code: 'too_many_attempts' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // No lookup is made for this address now: a valid key of another project, never accepted here, is refused too.
    expect((await get(other.host, from, other.key.key)).status).toBe(429);
    // Other addresses are not affected; the guesses counted for the project too, whose callers (keys accepted lately) still pass.
    expect((await get(other.host, address(), other.key.key)).status).toBe(200);
    expect((await get(host, address(), key.key)).status).toBe(200);
    expect((await get(host, address(), wrongKey())).status).toBe(429);
  });

  it('blocks a project guessed at from many addresses for unknown keys, while keys accepted lately keep working', async () => {
    const { host, key } = await keyedProject();
    expect((await get(host, address(), key.key)).status).toBe(200);
    for (let i = 0; i < LIMIT; i++) expect((await get(host, address(), wrongKey())).status).toBe(401);
    expect((await get(host, address(), wrongKey())).status).toBe(429);
    expect((await get(host, address(), key.key)).status).toBe(200);
  });

  it('counts wrong keys on the preview address, its /_openapi.json and the admin key API alike', async () => {
    const { project } = await keyedProject();
    const from = address();
    const preview = `${project.subdomain}--preview.localhost`;
    const tries: Array<[string, string]> = [[preview, '/_openapi.json'], [preview, '/members'], [`${project.subdomain}.localhost`, '/admin/api-keys']];
    for (let i = 0; i < LIMIT; i++) {
      const [host, path] = tries[i % tries.length]!;
      expect({ path, status: (await get(host, from, wrongKey(), path)).status }).toEqual({ path, status: 401 });
    }
    expect((await get(preview, from, wrongKey(), '/_openapi.json')).status).toBe(429);
  });
});
