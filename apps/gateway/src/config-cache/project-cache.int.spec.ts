import { EPOCH_KEY, projectKey, type PublishedProject } from '@flowgate/contracts';
import { call, CommandLog, PrivateRedis, publishedRoute, respond, TestPublisher, waitFor } from '@flowgate/testing';
import { Redis } from 'ioredis';
import type { Gateway } from '../gateway';
import { startGateway } from '../testing/gateway-harness';

const PROJECTS = 2_000;
const projectReads = (keys: string[]) => keys.filter((key) => key.startsWith('fg:project:'));

describe(`gateway configuration cache with ${PROJECTS} projects cached (Redis of its own)`, () => {
  let privateRedis: PrivateRedis;
  let redis: Redis;
  let publisher: TestPublisher;
  let gateway: Gateway;
  let log: CommandLog;
  const projects: PublishedProject[] = [];
  const route = publishedRoute({ path: '/hello', blocks: [respond({ revision: 1 })] });
  const hostOf = (project: PublishedProject) => `${project.subdomain}.localhost`;
  const bodyOf = async (project: PublishedProject, path = '/hello') => (await call(gateway.url, hostOf(project), path)).json;

  beforeAll(async () => {
    privateRedis = await PrivateRedis.start();
    redis = new Redis(privateRedis.url);
    publisher = new TestPublisher(redis);
    for (let i = 0; i < PROJECTS; i++) projects.push(publisher.newProject([route]));
    for (let start = 0; start < PROJECTS; start += 100) await Promise.all(projects.slice(start, start + 100).map((p) => publisher.publish(p)));
    gateway = await startGateway({ REDIS_URL: privateRedis.url, GATEWAY_CONFIG_POLL_MS: '100' });
    for (let start = 0; start < PROJECTS; start += 50) await Promise.all(projects.slice(start, start + 50).map((p) => bodyOf(p)));
    log = await CommandLog.start(privateRedis.url);
  }, 120_000);

  afterAll(async () => {
    log?.close();
    await gateway?.close();
    redis?.disconnect();
    await privateRedis?.down();
  });

  it('holds every project it served', () => {
    expect(gateway.cache.size).toBe(PROJECTS);
  });

  it('re-reads only the deployed project on a deploy, however many it holds', async () => {
    const deployed = projects[7]!;
    const mark = log.mark;
    const next = publishedRoute({ path: '/hello', endpoint_id: route.endpoint_id, version: 2, blocks: [respond({ revision: 2 })] });
    await publisher.publish({ ...deployed, revision: 2, routes: [next] });
    await waitFor(async () => JSON.stringify(await bodyOf(deployed)) === JSON.stringify({ revision: 2 }), 'the deploy served');
    // Polls after the deploy see fg:config-seq moved and account for it by the message received.
    await log.polledSince(mark, 3);
    expect(new Set(projectReads(log.readsSince(mark)))).toEqual(new Set([projectKey(deployed.id)]));
    expect(await bodyOf(projects[8]!)).toEqual({ revision: 1 });
  });

  it('re-reads everything after a missed announcement, and serves the missed change', async () => {
    const missed = projects[9]!;
    const mark = log.mark;
    const next = publishedRoute({ path: '/hello', endpoint_id: route.endpoint_id, version: 2, blocks: [respond({ missed: 'seen' })] });
    await publisher.publish({ ...missed, revision: 2, routes: [next] }, { notify: false });
    await waitFor(async () => JSON.stringify(await bodyOf(missed)) === JSON.stringify({ missed: 'seen' }), 'the unannounced change served');
    await waitFor(() => new Set(projectReads(log.readsSince(mark))).size >= PROJECTS || undefined, 'every cached project re-read');
    expect(await bodyOf(projects[10]!)).toEqual({ revision: 1 });
  });

  it('refuses a deleted key on the very next request, also while everything is being re-read', async () => {
    const keyed = publisher.newProject([publishedRoute({ path: '/keyed', auth: 'user', blocks: [respond({ keyed: true })] })]);
    await publisher.publish(keyed);
    const key = await publisher.createKey(keyed.id);
    expect((await call(gateway.url, hostOf(keyed), '/keyed', { key: key.key })).status).toBe(200);
    // A new epoch starts a full re-read of the 2 000 projects held.
    const mark = log.mark;
    await redis.set(EPOCH_KEY, `test-${Date.now()}`);
    await waitFor(() => projectReads(log.readsSince(mark)).length > 0 || undefined, 'the full re-read started');
    await publisher.deleteKey(key);
    const refused = await call(gateway.url, hostOf(keyed), '/keyed', { key: key.key });
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ code: 'invalid_api_key' });
  });

  it('drops a deleted project at once and answers 404 for it', async () => {
    const deleted = projects[11]!;
    const before = gateway.cache.size;
    await publisher.unpublish(deleted);
    await waitFor(async () => (await call(gateway.url, hostOf(deleted), '/hello')).status === 404, 'the deleted project gone');
    expect(gateway.cache.size).toBe(before - 1);
    expect(await bodyOf(projects[12]!)).toEqual({ revision: 1 });
  });
});

describe('gateway configuration cache bound (GATEWAY_PROJECT_CACHE_MB)', () => {
  let privateRedis: PrivateRedis;
  let redis: Redis;
  let gateway: Gateway;
  let log: CommandLog;

  beforeAll(async () => {
    privateRedis = await PrivateRedis.start();
    redis = new Redis(privateRedis.url);
    gateway = await startGateway({ REDIS_URL: privateRedis.url, GATEWAY_PROJECT_CACHE_MB: '1' });
    log = await CommandLog.start(privateRedis.url);
  }, 30_000);

  afterAll(async () => {
    log?.close();
    await gateway?.close();
    redis?.disconnect();
    await privateRedis?.down();
  });

  it('keeps the estimated memory within the bound, drops the least recently used, and reloads an evicted project on demand', async () => {
    const publisher = new TestPublisher(redis);
    const route = publishedRoute({ path: '/n', blocks: [respond({ served: true })] });
    const projects = Array.from({ length: 600 }, () => publisher.newProject([route]));
    for (const project of projects) await publisher.publish(project);
    const first = projects[0]!;
    for (const project of projects) expect((await call(gateway.url, `${project.subdomain}.localhost`, '/n')).json).toEqual({ served: true });

    expect(gateway.cache.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(gateway.cache.size).toBeLessThan(projects.length);
    const mark = log.mark;
    expect((await call(gateway.url, `${first.subdomain}.localhost`, '/n')).json).toEqual({ served: true });
    // The first project was the least recently used: it was dropped and is read again.
    expect(projectReads(log.readsSince(mark))).toContain(projectKey(first.id));
  });
});
