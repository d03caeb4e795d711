// Fault drill: a Redis Cluster loses a master, then a whole shard, under keyed traffic
// through two gateway processes. The drill runs its own 3-master + 3-replica cluster
// (scripts/lib/redis-cluster.js), so the shared Redis other tests use is never touched; the
// control plane (in process) publishes into it as in production. It has a database of its own:
// the reconciler compares every project in PostgreSQL with the cluster, and projects that other
// suites create meanwhile (published to their own Redis) would look lost to it.
import { projectKey, rateLimitKey } from '@flowgate/contracts';
import { migrate } from '@flowgate/db';
import { sha256Hex, type RedisClient } from '@flowgate/platform';
import { PublicationReconciler } from '../../apps/control-plane/src/publication/publication.reconciler';
import { endpointBody } from '../../apps/control-plane/src/testing/flows';
import { startTestApp, type TestAccount, type TestApp } from '../../apps/control-plane/src/testing/test-app';
import {
  call,
  createThrowawayDatabase,
  type GatewayProcess,
  type RedisBackend,
  spawnGateway,
  startRedisBackend,
  type ThrowawayDatabase,
  waitUntil,
} from '@flowgate/testing';
import { KeyedLoad } from './support/keyed-load';
import { setTimeout as sleep } from 'node:timers/promises';

jest.setTimeout(240_000);

const LIMIT = 30;

describe('fault drill: Redis Cluster failover and a lost shard under keyed traffic', () => {
  let backend: RedisBackend;
  let database: ThrowawayDatabase;
  let redis: RedisClient;
  let t: TestApp;
  let owner: TestAccount;
  let gateways: GatewayProcess[];
  let project: { id: string; subdomain: string };
  let host: string;

  const createKey = async (name: string, ratelimit_min: number) => {
    const response = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(owner.auth).send({ name, ratelimit_min }).expect(201);
    return { key: response.body.key as string, id: response.body.key_data.id as string };
  };
  const onBoth = (path: string, key?: string) => Promise.all(gateways.map((g) => call(g.url, host, path, { key })));
  const statuses = async (path: string, key?: string) => (await onBoth(path, key)).map((r) => r.status);

  beforeAll(async () => {
    backend = await startRedisBackend('Redis Cluster');
    redis = backend.client();
    database = await createThrowawayDatabase('flowgate_cluster_drill');
    await migrate(database.url, { quiet: true });
    t = await startTestApp((config) => ({ ...config, databaseUrl: database.url, redisClusterNodes: backend.target.clusterNodes }));
    owner = await t.signup();
    project = await t.createProject(owner);
    host = `${project.subdomain}.localhost:8080`;
    for (const body of [endpointBody({ path: '/keyed', auth: 'user' }), endpointBody({ name: 'Public', path: '/public' })]) {
      const endpoint = await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(body).expect(201);
      await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.body.id}/deploy`).set(owner.auth).expect(200);
    }
    gateways = await Promise.all([spawnGateway(backend.env), spawnGateway(backend.env)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all((gateways ?? []).map((g) => g.stop()));
    await t?.close();
    redis?.disconnect();
    await backend?.stop();
    await database?.drop();
  });

  it('kill -9 of the master of a key’s slot: 503 meanwhile, the replica takes over, no excess over the limit, no deleted key back', async () => {
    const cluster = backend.cluster!;
    const steady = await createKey('steady', 100_000);
    const limited = await createKey('limited', LIMIT);
    const deleted = await createKey('deleted', 1000);
    expect(await statuses('/keyed', deleted.key)).toEqual([200, 200]);
    await t.http().delete(`/v1/projects/${project.id}/api-keys/${deleted.id}`).set(owner.auth).expect(200);
    expect(await statuses('/keyed', deleted.key)).toEqual([401, 401]);

    // Fill the limited key's window: LIMIT accepted, then refused.
    const filledAt = Date.now();
    const fill = await Promise.all(Array.from({ length: LIMIT + 10 }, (_, i) => call(gateways[i % 2]!.url, host, '/keyed', { key: limited.key })));
    expect(fill.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    const windowKey = rateLimitKey(project.id, sha256Hex(limited.key));
    const windowBefore = await redis.llen(windowKey);

    const load = new KeyedLoad(gateways.map((g) => g.url), host, '/keyed', steady.key);
    const limitedLoad = new KeyedLoad(gateways.map((g) => g.url), host, '/keyed', limited.key, 100);
    const publicLoad = new KeyedLoad(gateways.map((g) => g.url), host, '/public', undefined, 50);
    load.start();
    limitedLoad.start();
    publicLoad.start();
    await sleep(1500);

    const master = cluster.masterOf(projectKey(project.id))!;
    const killedAt = Date.now();
    await cluster.kill(master);
    let recoveredAt = 0;
    await waitUntil(
      () => {
        const after = load.since(killedAt);
        const firstFailure = after.findIndex((r) => r.status !== 200);
        const recovered = firstFailure === -1 ? undefined : after.slice(firstFailure).find((r) => r.status === 200);
        if (recovered) recoveredAt = recovered.at;
        return recovered !== undefined || (after.length > 200 && firstFailure === -1);
      },
      (ready) => ready, 'keyed requests to succeed again after the failover', { timeoutMs: 60_000, intervalMs: 100 });
    await sleep(2000);
    await Promise.all([load.stop(), limitedLoad.stop(), publicLoad.stop()]);
    const windowAfter = await redis.llen(windowKey);

    const during = load.since(killedAt);
    const unavailable = during.filter((r) => r.status === 503);
    const limitedAccepted = limitedLoad.results.filter((r) => r.status === 200 && r.at - filledAt < 60_000);
    const figures = {
      seconds_until_keyed_requests_succeed: recoveredAt ? (recoveredAt - killedAt) / 1000 : 0,
      answered_503_meanwhile: unavailable.length,
      slowest_503_ms: Math.max(0, ...unavailable.map((r) => r.ms)),
      slowest_answer_ms: Math.max(0, ...during.map((r) => r.ms)),
      keyed_requests_meanwhile: during.filter((r) => r.at < (recoveredAt || killedAt)).length,
      other_answers: during.filter((r) => r.status !== 200 && r.status !== 503).map((r) => `${r.status} ${r.code}`),
      window_entries_before_kill: windowBefore,
      window_entries_on_promoted_replica: windowAfter,
      accepted_in_excess_of_limit: limitedAccepted.length,
      public_answers_meanwhile: publicLoad.since(killedAt).length,
      public_not_200: publicLoad.since(killedAt).filter((r) => r.status !== 200).length,
    };
    process.stdout.write(`[redis-cluster drill] failover ${JSON.stringify(figures)}\n`);

    // Public endpoints went on from the gateways' caches.
    expect(figures.public_answers_meanwhile).toBeGreaterThan(0);
    expect(figures.public_not_200).toBe(0);
    // Never accepted unverified: every keyed answer meanwhile was 200 or 503 unavailable.
    expect(figures.other_answers).toEqual([]);
    expect(unavailable.every((r) => r.code === 'unavailable')).toBe(true);
    // Excess over the limit is bounded by the window entries the failover lost (0 when the window survived).
    expect(limitedAccepted.length).toBeLessThanOrEqual(Math.max(0, windowBefore - windowAfter));
    // A deleted key stays deleted on the promoted replica (its deletion waited for a replica).
    expect(await statuses('/keyed', deleted.key)).toEqual([401, 401]);
    expect(await statuses('/keyed', steady.key)).toEqual([200, 200]);

    // The old master comes back (empty) as a replica of the promoted one.
    await cluster.restart(master);
    await cluster.waitHealthy();
  });

  it('a shard that comes back empty: keys refused (never accepted), public endpoints served from cache, then republished', async () => {
    const cluster = backend.cluster!;
    const key = await createKey('after-loss', 1000);
    expect(await statuses('/keyed', key.key)).toEqual([200, 200]);
    expect(await statuses('/public')).toEqual([200, 200]);

    const master = cluster.masterOf(projectKey(project.id))!;
    // The old master of the previous test rejoins as a replica some time after the cluster is healthy again.
    const replicas = await waitUntil(async () => cluster.replicasOf(master), (ports) => ports.length > 0, 'the master to have a replica again', { timeoutMs: 30_000 });
    for (const port of [master, ...replicas]) await cluster.kill(port);
    for (const port of [master, ...replicas]) await cluster.restart(port);
    await cluster.waitHealthy(60_000);
    await waitUntil(async () => (await redis.exists(projectKey(project.id)).catch(() => 1)) === 0, (ready) => ready, 'the project document to be gone with its shard', { timeoutMs: 30_000 });

    // The key record is gone: refused, never accepted. The cached project still serves its public endpoint.
    await waitUntil(async () => !(await statuses('/keyed', key.key)).includes(503), (ready) => ready, 'keyed requests to be answered again', { timeoutMs: 30_000 });
    expect(await statuses('/keyed', key.key)).toEqual([401, 401]);
    expect(await statuses('/public')).toEqual([200, 200]);

    const reconciler = t.app.get(PublicationReconciler);
    const detectedAt = Date.now();
    expect(await reconciler.checkEpoch()).toBe(true);
    process.stdout.write(`[redis-cluster drill] lost shard republished in ${Date.now() - detectedAt} ms\n`);
    expect(await redis.exists(projectKey(project.id))).toBe(1);
    expect(await statuses('/keyed', key.key)).toEqual([200, 200]);
    expect(await statuses('/public')).toEqual([200, 200]);
    expect(await reconciler.checkEpoch()).toBe(false);
  });
});
