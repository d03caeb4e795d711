// The worker on a Redis Cluster (REDIS_CLUSTER_NODES): its runtime takes the email queue with
// the hash-tagged BullMQ prefix, the producer side is built the way the gateway builds it, and
// a job is delivered exactly once. The cluster is the test's own (3 masters + 3 replicas).
import { createEmailPort, EMAIL_QUEUE_NAME } from '@flowgate/integrations';
import { bullmqPrefix, createLogger, SecretBox, type RedisClient } from '@flowgate/platform';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { type RedisBackend, type StandIn, startRedisBackend, startStandIn, waitFor } from '@flowgate/testing';
import { queue as emailQueue } from '../../apps/worker/src/queues/email';
import { createWorkerRuntime, type WorkerRuntime } from '../../apps/worker/src/worker-runtime';

jest.setTimeout(120_000);

describe('worker on a Redis Cluster', () => {
  const prefix = `fgtest-worker-${randomUUID().slice(0, 8)}`;
  const secrets = new SecretBox(process.env.FLOWGATE_ENCRYPTION_KEY ?? '0'.repeat(64));
  let backend: RedisBackend;
  let sendgrid: StandIn;
  let runtime: WorkerRuntime;
  let producerConnection: RedisClient;
  let producer: Queue;

  beforeAll(async () => {
    backend = await startRedisBackend('Redis Cluster');
    sendgrid = await startStandIn((_req, res) => res.writeHead(202, { 'x-message-id': 'sg-worker-cluster' }).end());
    runtime = createWorkerRuntime({
      definitions: [emailQueue],
      redisUrl: backend.target.url,
      redisClusterNodes: backend.target.clusterNodes,
      databaseUrl: process.env.DATABASE_URL!,
      prefix,
      logger: createLogger('worker-cluster-test', 'silent'),
      env: { ...process.env, ...backend.env, FLOWGATE_SENDGRID_BASE_URL: sendgrid.url },
    });
    await runtime.start();
    producerConnection = backend.client({ node: { maxRetriesPerRequest: null } });
    producer = new Queue(EMAIL_QUEUE_NAME, { connection: producerConnection, prefix: bullmqPrefix(prefix, backend.target) });
  });

  afterAll(async () => {
    await runtime?.stop();
    await producer?.obliterate({ force: true });
    await producer?.close();
    producerConnection?.disconnect();
    await sendgrid?.close();
    await backend?.stop();
  });

  it('delivers a send_email job enqueued as the gateway does exactly once', async () => {
    const port = createEmailPort({ queue: producer, projectId: 'proj-cluster', verifiedDomains: ['example.com'], apiKeyEncrypted: secrets.encrypt('SG.cluster') });
    await port.enqueue({ to: 'ada@customer.test', from: 'Shop <orders@example.com>', subject: 'On the cluster', body: 'Hello' });
    const [job] = await waitFor(async () => {
      const jobs = await producer.getJobs(['completed']);
      return jobs.length > 0 ? jobs : undefined;
    }, 'the job to complete', 30_000);
    expect(job!.returnvalue).toEqual({ status: 'sent', message_id: 'sg-worker-cluster' });
    expect(sendgrid.requests).toHaveLength(1);
    expect(JSON.parse(sendgrid.requests[0]!.body)).toMatchObject({ subject: 'On the cluster' });
    expect(runtime.isReady()).toBe(true);
    expect(await runtime.metrics.metrics()).toMatch(/completed/);
  });
});
