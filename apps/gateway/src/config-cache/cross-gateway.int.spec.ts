import type { PublishedProject } from '@flowgate/contracts';
import { CONFIG_SEQ_KEY, EPOCH_KEY, imageKey, projectKey } from '@flowgate/contracts';
import { createEmailDeliveryProcessor, deliveryMarkerKey, EMAIL_QUEUE_NAME } from '@flowgate/integrations';
import { bullmqPrefix, createLogger, SecretBox, type RedisClient } from '@flowgate/platform';
import { Queue, Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { call, type CallResult, type GatewayProcess, publishedRoute, type RedisBackend, type RedisBackendKind, respond, spawnGateway, type StandIn, startRedisBackend, startStandIn, TestPublisher, waitFor } from '@flowgate/testing';
import { setTimeout as sleep } from 'node:timers/promises';

jest.setTimeout(60_000);

/**
 * Two gateway processes against the real Redis — the shared single Redis, and a local Redis
 * Cluster of 3 masters + 3 replicas (REDIS_CLUSTER_NODES): what one control-plane write
 * publishes is served by both right after it, keys are shared, the rate limit holds across
 * them, email jobs are delivered once and images are served by either.
 */
describe.each<RedisBackendKind>(['single Redis', 'Redis Cluster'])('gateway on %s: two gateway processes share config, keys and rate limits', (kind) => {
  const prefix = `fgtest-cross-${randomUUID().slice(0, 8)}`;
  const secrets = new SecretBox(process.env.FLOWGATE_ENCRYPTION_KEY ?? '0'.repeat(64));
  let backend: RedisBackend;
  let redis: RedisClient;
  let publisher: TestPublisher;
  let gateways: GatewayProcess[];
  let remote: StandIn;
  let sendgrid: StandIn;

  beforeAll(async () => {
    // Database 11 of the single Redis: this suite watches fg:epoch, which other suites reset.
    backend = await startRedisBackend(kind, { database: 11 });
    redis = backend.client();
    publisher = new TestPublisher(redis);
    remote = await startStandIn((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(ONE_PIXEL_PNG));
    sendgrid = await startStandIn((_req, res) => res.writeHead(202, { 'x-message-id': 'sg-cross' }).end());
    // The first image task loads the image codecs on a new heavy-work thread at nice +10: on a
    // busy two-core machine (a full CI run) that took longer than the default 5 s task limit.
    // This suite checks what gateways share, not how fast a thread starts.
    const env = { ...backend.env, BULLMQ_PREFIX: prefix, FLOWGATE_EGRESS_ALLOW_CIDRS: '127.0.0.0/8', FLOW_WORKER_TASK_MS: '40000', FLOW_TIMEOUT_MS: '45000' };
    gateways = await Promise.all([spawnGateway(env), spawnGateway(env)]);
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all((gateways ?? []).map((g) => g.stop()));
    expect(codes).toEqual([0, 0]);
    await publisher.cleanup();
    redis.disconnect();
    await Promise.all([remote?.close(), sendgrid?.close()]);
    await backend?.stop();
  });

  const onBoth = (host: string, path: string, key?: string) => Promise.all(gateways.map((g) => call(g.url, `${host}:8080`, path, { key })));
  const bodies = (results: CallResult[]) => results.map((r) => r.json);
  /** The change shows on every gateway (the wait is a guard against hanging, not a timed assertion). */
  const servedEverywhere = (host: string, path: string, expected: unknown) =>
    waitFor(
      async () => {
        const results = await onBoth(host, path);
        return results.every((r) => JSON.stringify(r.json) === JSON.stringify(expected));
      },
      `${host}${path} → ${JSON.stringify(expected)} on both gateways`,
      20_000,
    );
  /** Visibility delays of deploys (printed, not asserted: the contract's 100 ms is a figure to watch, not a timed test). */
  const visibleAfterMs: number[] = [];
  const deployedEverywhere = async (host: string, path: string, expected: unknown, writtenAt: number) => {
    await servedEverywhere(host, path, expected);
    visibleAfterMs.push(Date.now() - writtenAt);
  };
  afterAll(() => {
    if (visibleAfterMs.length) process.stdout.write(`[cross-gateway ${kind}] deploy/rollback/undeploy visible on both gateways after ${visibleAfterMs.join(', ')} ms (poll every 10 ms)\n`);
  });

  it('serves deploy, redeploy, rollback and undeploy on every gateway right after the write', async () => {
    const v1 = publishedRoute({ path: '/status', blocks: [respond({ version: 1 })] });
    const project: PublishedProject = publisher.newProject([v1]);
    await publisher.publish(project);
    const host = `${project.subdomain}.localhost`;
    expect(bodies(await onBoth(host, '/status'))).toEqual([{ version: 1 }, { version: 1 }]);

    const v2 = publishedRoute({ path: '/status', endpoint_id: v1.endpoint_id, version: 2, blocks: [respond({ version: 2 })] });
    let writtenAt = Date.now();
    await publisher.publish({ ...project, revision: 2, routes: [v2] });
    await deployedEverywhere(host, '/status', { version: 2 }, writtenAt);

    writtenAt = Date.now();
    await publisher.publish({ ...project, revision: 3, routes: [v1] }); // rollback = redeploy of version 1
    await deployedEverywhere(host, '/status', { version: 1 }, writtenAt);

    writtenAt = Date.now();
    await publisher.publish({ ...project, revision: 4, routes: [] }); // undeploy
    await deployedEverywhere(host, '/status', { success: false, code: 'endpoint_not_found', message: 'No endpoint at /status' }, writtenAt);
  });

  it('moves a project to a new subdomain: the new address serves and the old one is 404 everywhere', async () => {
    const project = publisher.newProject([publishedRoute({ path: '/where', blocks: [respond({ here: true })] })]);
    await publisher.publish(project);
    const oldHost = `${project.subdomain}.localhost`;
    expect(bodies(await onBoth(oldHost, '/where'))).toEqual([{ here: true }, { here: true }]);
    const newSubdomain = `${project.subdomain}-new`;
    const newHost = `${newSubdomain}.localhost`;
    // The new address was looked up (and found unused) before the move.
    expect((await onBoth(newHost, '/where')).map((r) => r.status)).toEqual([404, 404]);

    await publisher.publish({ ...project, subdomain: newSubdomain, revision: 2 }, { previousSubdomain: project.subdomain });
    await servedEverywhere(newHost, '/where', { here: true });
    await servedEverywhere(oldHost, '/where', { success: false, code: 'project_not_found', message: 'No project at this address' });
  });

  it('catches up through fg:config-seq when the pub/sub message is lost', async () => {
    const route = publishedRoute({ path: '/quiet', blocks: [respond({ n: 1 })] });
    const project = publisher.newProject([route]);
    await publisher.publish(project);
    const host = `${project.subdomain}.localhost`;
    expect(bodies(await onBoth(host, '/quiet'))).toEqual([{ n: 1 }, { n: 1 }]);
    const next = publishedRoute({ path: '/quiet', endpoint_id: route.endpoint_id, version: 2, blocks: [respond({ n: 2 })] });
    await publisher.publish({ ...project, revision: 2, routes: [next] }, { notify: false });
    await servedEverywhere(host, '/quiet', { n: 2 });
  });

  it('stops serving a deleted project everywhere', async () => {
    const project = publisher.newProject([publishedRoute({ path: '/bye', blocks: [respond({ alive: true })] })]);
    await publisher.publish(project);
    const host = `${project.subdomain}.localhost`;
    expect(bodies(await onBoth(host, '/bye'))).toEqual([{ alive: true }, { alive: true }]);
    await publisher.unpublish(project);
    await servedEverywhere(host, '/bye', { success: false, code: 'project_not_found', message: 'No project at this address' });
  });

  it('keeps serving a project whose document vanished without a deletion marker (lost state) until a new fg:epoch', async () => {
    // As the control plane does at start-up: the epoch exists before anything is published.
    await redis.set(EPOCH_KEY, `test-${randomUUID()}`, 'NX');
    const project = publisher.newProject([publishedRoute({ path: '/kept', blocks: [respond({ kept: true })] })]);
    await publisher.publish(project);
    const host = `${project.subdomain}.localhost`;
    expect(bodies(await onBoth(host, '/kept'))).toEqual([{ kept: true }, { kept: true }]);

    // Redis (or the project's shard) lost the document: no deletion marker. Every gateway re-reads (config-seq moved).
    await redis.del(projectKey(project.id));
    await redis.incr(CONFIG_SEQ_KEY);
    await sleep(1500);
    expect(bodies(await onBoth(host, '/kept'))).toEqual([{ kept: true }, { kept: true }]);

    // The control plane's republication ends with a new epoch: a document still missing is gone.
    await redis.set(EPOCH_KEY, `test-${randomUUID()}`);
    await servedEverywhere(host, '/kept', { success: false, code: 'project_not_found', message: 'No project at this address' });
  });

  it('fails a deleted key on the very next request on both gateways', async () => {
    const project = publisher.newProject([publishedRoute({ path: '/secret', auth: 'user', blocks: [respond({ ok: true })] })]);
    await publisher.publish(project);
    const key = await publisher.createKey(project.id);
    const host = `${project.subdomain}.localhost`;
    expect((await onBoth(host, '/secret', key.key)).map((r) => r.status)).toEqual([200, 200]);
    await publisher.deleteKey(key);
    const after = await onBoth(host, '/secret', key.key);
    expect(after.map((r) => [r.status, (r.json as { code: string }).code])).toEqual([
      [401, 'invalid_api_key'],
      [401, 'invalid_api_key'],
    ]);
  });

  it('accepts exactly ratelimit_min requests of a concurrent burst spread over both gateways', async () => {
    const project = publisher.newProject([publishedRoute({ path: '/limited', auth: 'user', blocks: [respond({ ok: true })] })]);
    await publisher.publish(project);
    const key = await publisher.createKey(project.id, { ratelimit_min: 20 });
    const host = `${project.subdomain}.localhost:8080`;
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(gateways[i % 2]!.url, host, '/limited', { key: key.key })),
    );
    const accepted = burst.filter((r) => r.status === 200);
    const limited = burst.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(20);
    expect(limited).toHaveLength(40);
    for (const r of limited) {
      expect(r.json).toMatchObject({ success: false, code: 'rate_limited' });
      expect(r.headers['ratelimit-limit']).toBe('20');
      expect(r.headers['ratelimit-remaining']).toBe('0');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    const remaining = accepted.map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // Still refused afterwards, on either gateway: the window is shared.
    expect((await onBoth(host.replace(':8080', ''), '/limited', key.key)).map((r) => r.status)).toEqual([429, 429]);
  });

  it('delivers an email job enqueued by one gateway exactly once, and serves an image made on one gateway from the other', async () => {
    const project = publisher.newProject(
      [
        publishedRoute({
          path: '/order',
          blocks: [
            { type: 'manipulate_image', config: { image_url: `${remote.url}/p.png`, operation: 'invert', value: 100, ref: 'photo' } },
            { type: 'send_email', config: { to: 'ada@customer.test', from: 'Shop <orders@example.com>', subject: `Order ${kind}`, body: 'Thanks' } },
            respond({ image: '{result.photo}' }),
          ],
        }),
      ],
      { integrations: { text_generation: null, email: { provider: 'sendgrid', api_key_encrypted: secrets.encrypt('SG.cross'), verified_domains: ['example.com'] } } },
    );
    await publisher.publish(project);
    // The worker's delivery processor on the same Redis (cluster: the hash-tagged prefix BullMQ needs).
    const connection = backend.client({ node: { maxRetriesPerRequest: null } });
    const queuePrefix = bullmqPrefix(prefix, backend.target);
    const deliver = createEmailDeliveryProcessor({ redis, secrets, sendgridBaseUrl: sendgrid.url, logger: createLogger('cross-worker', 'silent') });
    const worker = new Worker(EMAIL_QUEUE_NAME, deliver, { connection, prefix: queuePrefix });
    const queue = new Queue(EMAIL_QUEUE_NAME, { connection, prefix: queuePrefix });
    try {
      const host = `${project.subdomain}.localhost:8080`;
      const made = await call(gateways[0]!.url, host, '/order');
      expect(made.status).toBe(200);
      const imagePath = new URL((made.json as { image: string }).image).pathname;
      const served = await call(gateways[1]!.url, host, imagePath);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');

      const [job] = await waitFor(async () => {
        const jobs = await queue.getJobs(['completed']);
        return jobs.length > 0 ? jobs : undefined;
      }, 'the email job to complete', 20_000);
      expect(sendgrid.requests).toHaveLength(1);
      expect(JSON.parse(sendgrid.requests[0]!.body)).toMatchObject({ subject: `Order ${kind}` });
      await redis.del(deliveryMarkerKey(EMAIL_QUEUE_NAME, job!.id!));
      await redis.del(imageKey(imagePath.slice('/_images/'.length, -'.png'.length)));
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await connection.quit();
    }
  });
});

/** A 1×1 PNG, what the remote image host answers. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
