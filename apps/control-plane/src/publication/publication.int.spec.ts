import { CHANGES_CHANNEL, CONFIG_SEQ_KEY, PUBLISHED_WITH_KEY, type AnnouncedChange, EPOCH_KEY, apiKeyRecordKey, projectKey, subdomainKey } from '@flowgate/contracts';
import { migrate } from '@flowgate/db';
import { createRedisClient, sha256Hex, type RedisClient } from '@flowgate/platform';
import { createControlPlaneApp } from '../app.factory';
import { endpointBody } from '../testing/flows';
import { type LocalRedisCluster, PrivateRedis, type ThrowawayDatabase, createThrowawayDatabase, startRedisCluster } from '@flowgate/testing';
import { type TestAccount, type TestApp, publishedProject, startTestApp } from '../testing/test-app';
import { PublicationReconciler } from './publication.reconciler';
import { PublicationStore } from './publication.store';

/**
 * The same contract on a single Redis and on a Redis Cluster (REDIS_CLUSTER_NODES), each with a
 * database and a Redis of the suite's own: "every project" and "fg:epoch" then mean this suite's,
 * whatever the suites running beside it create or remove.
 */
describe.each(['single Redis', 'Redis Cluster'])('publication to %s (real PostgreSQL and Redis)', (kind) => {
  let cluster: LocalRedisCluster | null = null;
  let redis: PrivateRedis | null = null;
  let database: ThrowawayDatabase;
  let t: TestApp;
  let owner: TestAccount;
  let subscriber: RedisClient;
  const changes: AnnouncedChange[] = [];
  const waiters: Array<{ match: (c: AnnouncedChange) => boolean; resolve: (c: AnnouncedChange) => void }> = [];

  /** Resolves with the first announcement (already received or still to come) that matches. */
  const announced = (match: (c: AnnouncedChange) => boolean) =>
    new Promise<AnnouncedChange>((resolve) => {
      const seen = changes.find(match);
      if (seen) resolve(seen);
      else waiters.push({ match, resolve });
    });

  beforeAll(async () => {
    database = await createThrowawayDatabase('flowgate_publication');
    await migrate(database.url, { quiet: true });
    cluster = kind === 'Redis Cluster' ? await startRedisCluster() : null;
    redis = cluster ? null : await PrivateRedis.start();
    t = await startTestApp((config) => ({
      ...config,
      databaseUrl: database.url,
      data: { ...config.data, url: database.url },
      redisUrl: redis?.url ?? config.redisUrl,
      redisClusterNodes: cluster ? cluster.nodes.split(',') : null,
    }));
    owner = await t.signup();
    subscriber = createRedisClient({ url: t.config.redisUrl, clusterNodes: t.config.redisClusterNodes });
    subscriber.on('message', (_channel: string, message: string) => {
      const change = JSON.parse(message) as AnnouncedChange;
      changes.push(change);
      for (const waiter of waiters.filter((w) => w.match(change))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(change);
      }
    });
    await subscriber.subscribe(CHANGES_CHANNEL);
  }, 60_000);
  afterAll(async () => {
    subscriber.disconnect();
    await t.close();
    await cluster?.stop();
    await redis?.down();
    await database?.drop();
  });

  /** One DEL per key: on a cluster they live in different slots. */
  const removeEach = (...keys: string[]) => Promise.all(keys.map((key) => t.redis.del(key)));

  /** A project with a live endpoint and a key: everything the contract covers. */
  async function servingProject() {
    const project = await t.createProject(owner);
    const endpoint = await t.http().post(`/v1/projects/${project.id}/endpoints`).set(owner.auth).send(endpointBody()).expect(201);
    await t.http().post(`/v1/projects/${project.id}/endpoints/${endpoint.body.id}/deploy`).set(owner.auth).expect(200);
    const key = await t.http().post(`/v1/projects/${project.id}/api-keys`).set(owner.auth).send({ name: 'k', permission: 'admin' }).expect(201);
    return { project, keyRecord: apiKeyRecordKey(project.id, sha256Hex(key.body.key)) };
  }

  it('announces each serving change on fg:changes with the published revision and the fg:config-seq value it set', async () => {
    const project = await t.createProject(owner);
    const seqBefore = Number(await t.redis.get(CONFIG_SEQ_KEY));
    await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ require_auth: true }).expect(200);
    const change = await announced((c) => c.type === 'project' && c.project_id === project.id && c.revision === 2);
    expect(change).toEqual({ type: 'project', project_id: project.id, revision: 2, seq: expect.any(Number) });
    expect((await publishedProject(t.redis, project.id))?.revision).toBe(2);
    expect(change.seq).toBeGreaterThan(seqBefore);
    expect(Number(await t.redis.get(CONFIG_SEQ_KEY))).toBeGreaterThanOrEqual(change.seq!);

    await t.http().delete(`/v1/projects/${project.id}`).set(owner.auth).expect(200);
    expect(await announced((c) => c.type === 'project_deleted' && c.project_id === project.id)).toEqual({
      type: 'project_deleted',
      project_id: project.id,
      seq: expect.any(Number),
    });
  });

  it('republishes everything when fg:epoch is missing, and only then', async () => {
    const { project, keyRecord } = await servingProject();
    const before = {
      document: await t.redis.get(projectKey(project.id)),
      key: await t.redis.hgetall(keyRecord),
    };
    const reconciler = t.app.get(PublicationReconciler);
    await reconciler.republishAll('reconcile');
    expect(await reconciler.checkEpoch()).toBe(false);

    // Redis "loses its state": the epoch marker and this project's records disappear.
    await removeEach(EPOCH_KEY, projectKey(project.id), subdomainKey(project.subdomain), keyRecord);
    expect(await reconciler.checkEpoch()).toBe(true);

    expect(await t.redis.get(EPOCH_KEY)).toEqual(expect.any(String));
    expect(await t.redis.get(subdomainKey(project.subdomain))).toBe(project.id);
    const restored = await publishedProject(t.redis, project.id);
    expect(restored).toEqual(JSON.parse(before.document!));
    expect(await t.redis.hgetall(keyRecord)).toEqual(before.key);
    const announcement = await announced((c) => c.type === 'republish');
    expect(announcement).toEqual({ type: 'republish', epoch: expect.any(String), seq: expect.any(Number) });
  });

  it('republishes a project whose records alone are gone (a lost cluster shard) on a cluster, and only there', async () => {
    const { project, keyRecord } = await servingProject();
    const before = { document: await t.redis.get(projectKey(project.id)), key: await t.redis.hgetall(keyRecord) };
    const reconciler = t.app.get(PublicationReconciler);
    await reconciler.republishAll('reconcile');
    const epoch = await t.redis.get(EPOCH_KEY);

    // The project's slot lost its state; fg:epoch (elsewhere) survived.
    await removeEach(projectKey(project.id), keyRecord);
    if (kind === 'single Redis') {
      // One Redis loses everything at once: fg:epoch alone tells, and it is there.
      expect(await reconciler.checkEpoch()).toBe(false);
      return;
    }
    expect(await reconciler.checkEpoch()).toBe(true);
    expect(await t.redis.get(projectKey(project.id))).toBe(before.document);
    expect(await t.redis.hgetall(keyRecord)).toEqual(before.key);
    // A new epoch: gateways re-read what they cached, and only now take a missing document as deleted.
    expect(await t.redis.get(EPOCH_KEY)).not.toBe(epoch);
    expect(await announced((c) => c.type === 'republish' && c.epoch !== epoch)).toEqual({ type: 'republish', epoch: expect.any(String), seq: expect.any(Number) });
    // Nothing is missing any more: a second check finds nothing to do.
    expect(await t.app.get(PublicationStore).missingProjects([{ id: project.id, subdomain: project.subdomain }])).toEqual([]);
    expect(await reconciler.checkEpoch()).toBe(false);
  });

  it('starts without republishing when Redis holds the state, then rewrites only the projects that differ, as changes', async () => {
    const reconciler = t.app.get(PublicationReconciler);
    const untouched = await servingProject();
    const lost = await servingProject();
    await reconciler.republishAll('reconcile');
    // A document text no rewrite produces, at the revision PostgreSQL has: a reconcile leaves it alone.
    const marked = JSON.stringify({ ...JSON.parse((await t.redis.get(projectKey(untouched.project.id)))!), untouched: true });
    await t.redis.set(projectKey(untouched.project.id), marked);
    const lostRevision = (await publishedProject(t.redis, lost.project.id))!.revision;
    await removeEach(projectKey(lost.project.id), subdomainKey(lost.project.subdomain), lost.keyRecord);

    const second = await createControlPlaneApp({
      ...t.config,
      publication: { ...t.config.publication, background: true, epochCheckSeconds: 3600, reconcileSeconds: 3600 },
    });
    try {
      const change = await announced((c) => c.type === 'project' && c.project_id === lost.project.id && c.revision === lostRevision + 1);
      expect(change.seq).toEqual(expect.any(Number));
      expect((await publishedProject(t.redis, lost.project.id))?.revision).toBe(lostRevision + 1);
      expect(await t.redis.get(subdomainKey(lost.project.subdomain))).toBe(lost.project.id);
      expect(await t.redis.hget(lost.keyRecord, 'project_id')).toBe(lost.project.id);
      expect(await t.redis.get(projectKey(untouched.project.id))).toBe(marked);
    } finally {
      await second.close();
    }
  }, 120_000);

  it('rewrites every document, unannounced and at its own revision, when they were sealed or addressed otherwise', async () => {
    const reconciler = t.app.get(PublicationReconciler);
    const { project } = await servingProject();
    const revision = (await publishedProject(t.redis, project.id))!.revision;
    const marked = JSON.stringify({ ...JSON.parse((await t.redis.get(projectKey(project.id)))!), untouched: true });
    await t.redis.set(projectKey(project.id), marked);
    // As if the documents had been published under another FLOWGATE_ENCRYPTION_KEY or GATEWAY_PUBLIC_URL.
    await t.redis.set(PUBLISHED_WITH_KEY, 'another key');

    await reconciler.reconcile();
    expect(JSON.parse((await t.redis.get(projectKey(project.id)))!)).not.toHaveProperty('untouched');
    expect((await publishedProject(t.redis, project.id))?.revision).toBe(revision);
    expect(await t.redis.get(PUBLISHED_WITH_KEY)).not.toBe('another key');
    expect(changes.some((c) => c.type === 'project' && c.project_id === project.id && c.revision > revision)).toBe(false);
  }, 120_000);
});
