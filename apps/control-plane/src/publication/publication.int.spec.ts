import { CHANGES_CHANNEL, CONFIG_SEQ_KEY, type ConfigChange, EPOCH_KEY, apiKeyRecordKey, projectKey, subdomainKey } from '@flowgate/contracts';
import { createRedisClient, sha256Hex, type RedisClient } from '@flowgate/platform';
import { createControlPlaneApp } from '../app.factory';
import { endpointBody } from '../testing/flows';
import { type LocalRedisCluster, startRedisCluster } from '@flowgate/testing';
import { type TestAccount, type TestApp, publishedProject, startTestApp } from '../testing/test-app';
import { PublicationReconciler } from './publication.reconciler';

/** The same contract on a single Redis and on a Redis Cluster of the suite's own (REDIS_CLUSTER_NODES). */
describe.each(['single Redis', 'Redis Cluster'])('publication to %s (real PostgreSQL and Redis)', (kind) => {
  let cluster: LocalRedisCluster | null = null;
  let t: TestApp;
  let owner: TestAccount;
  let subscriber: RedisClient;
  const changes: ConfigChange[] = [];
  const waiters: Array<{ match: (c: ConfigChange) => boolean; resolve: (c: ConfigChange) => void }> = [];

  /** Resolves with the first announcement (already received or still to come) that matches. */
  const announced = (match: (c: ConfigChange) => boolean) =>
    new Promise<ConfigChange>((resolve) => {
      const seen = changes.find(match);
      if (seen) resolve(seen);
      else waiters.push({ match, resolve });
    });

  beforeAll(async () => {
    cluster = kind === 'Redis Cluster' ? await startRedisCluster() : null;
    t = await startTestApp((config) => ({ ...config, redisClusterNodes: cluster ? cluster.nodes.split(',') : null }));
    owner = await t.signup();
    subscriber = createRedisClient({ url: t.config.redisUrl, clusterNodes: t.config.redisClusterNodes });
    subscriber.on('message', (_channel: string, message: string) => {
      const change = JSON.parse(message) as ConfigChange;
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

  it('announces each serving change on fg:changes with the published revision, after bumping fg:config-seq', async () => {
    const project = await t.createProject(owner);
    const seqBefore = Number(await t.redis.get(CONFIG_SEQ_KEY));
    await t.http().patch(`/v1/projects/${project.id}`).set(owner.auth).send({ require_auth: true }).expect(200);
    const change = await announced((c) => c.type === 'project' && c.project_id === project.id && c.revision === 2);
    expect(change).toEqual({ type: 'project', project_id: project.id, revision: 2 });
    expect((await publishedProject(t.redis, project.id))?.revision).toBe(2);
    expect(Number(await t.redis.get(CONFIG_SEQ_KEY))).toBeGreaterThan(seqBefore);

    await t.http().delete(`/v1/projects/${project.id}`).set(owner.auth).expect(200);
    expect(await announced((c) => c.type === 'project_deleted' && c.project_id === project.id)).toEqual({
      type: 'project_deleted',
      project_id: project.id,
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
    expect(announcement).toEqual({ type: 'republish', epoch: expect.any(String) });
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
    expect(await announced((c) => c.type === 'republish' && c.epoch !== epoch)).toEqual({ type: 'republish', epoch: expect.any(String) });
    expect(await reconciler.checkEpoch()).toBe(false);
  });

  it('republishes everything at start-up', async () => {
    const { project, keyRecord } = await servingProject();
    const document = await t.redis.get(projectKey(project.id));
    await removeEach(projectKey(project.id), subdomainKey(project.subdomain), keyRecord);

    const second = await createControlPlaneApp({
      ...t.config,
      publication: { ...t.config.publication, background: true, epochCheckSeconds: 3600, reconcileSeconds: 3600 },
    });
    try {
      expect(await t.redis.get(projectKey(project.id))).toBe(document);
      expect(await t.redis.get(subdomainKey(project.subdomain))).toBe(project.id);
      expect(await t.redis.hget(keyRecord, 'project_id')).toBe(project.id);
    } finally {
      await second.close();
    }
  });
});
