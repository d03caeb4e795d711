import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmailDeliveryProcessor, createEmailPort, deliveryMarkerKey, EMAIL_QUEUE_NAME, type EmailJobData } from '@flowgate/integrations';
import { createLogger, SecretBox } from '@flowgate/platform';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { waitUntil } from '@flowgate/testing';
import { deadLetterQueueName, type DeadJobRecord } from '../../queue-definition';
import { createWorkerRuntime, type WorkerRuntime } from '../../worker-runtime';
import { queue as emailQueue } from './index';

jest.setTimeout(60000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const encryptionKey = process.env.FLOWGATE_ENCRYPTION_KEY ?? '0'.repeat(64);
const logger = createLogger('email-test', 'silent');

interface Delivery {
  subject: string;
  status: number;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

/** SendGrid stand-in: `/v3/mail/send`, answering per subject with a scripted list of statuses. */
async function startSendgrid(script: Record<string, number[]>) {
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const subject = String(body.subject);
      const seen = deliveries.filter((d) => d.subject === subject).length;
      const plan = script[subject] ?? [202];
      const status = plan[Math.min(seen, plan.length - 1)];
      deliveries.push({ subject, status, body, authorization: req.headers.authorization });
      if (status === 202) {
        res.writeHead(202, { 'x-message-id': `msg-${subject}` });
        return res.end();
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: status >= 500 ? 'internal error' : 'The from address does not match a verified Sender Identity.', field: 'from' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    accepted: (subject: string) => deliveries.filter((d) => d.subject === subject && d.status === 202).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}


describe('send_email: enqueue in the gateway, deliver in the worker (real Redis, BullMQ, @sendgrid/mail)', () => {
  const prefix = `fgtest-email-${randomUUID().slice(0, 8)}`;
  const secrets = new SecretBox(encryptionKey);
  const apiKeyEncrypted = secrets.encrypt('SG.test-key');
  let sendgrid: Awaited<ReturnType<typeof startSendgrid>>;
  let runtime: WorkerRuntime;
  let producer: Queue;
  let dead: Queue;
  let redis: Redis;

  beforeAll(async () => {
    sendgrid = await startSendgrid({
      'two failures then ok': [500, 503, 202],
      'rejected for good': [400],
      'always down': [500],
      'rate limited': [429, 202],
    });
    redis = new Redis(redisUrl);
    runtime = createWorkerRuntime({
      // Three runs: enough for two provider errors then success, and to exhaust 'always down'.
      definitions: [{ ...emailQueue, attempts: 3 }],
      redisUrl,
      databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/flowgate',
      prefix,
      logger,
      env: { ...process.env, REDIS_URL: redisUrl, FLOWGATE_ENCRYPTION_KEY: encryptionKey, FLOWGATE_SENDGRID_BASE_URL: sendgrid.url },
    });
    await runtime.start();
    producer = new Queue(EMAIL_QUEUE_NAME, { connection: { url: redisUrl }, prefix });
    dead = new Queue(deadLetterQueueName(EMAIL_QUEUE_NAME), { connection: { url: redisUrl }, prefix });
  });

  afterAll(async () => {
    await runtime.stop();
    await producer.obliterate({ force: true });
    await dead.obliterate({ force: true });
    await producer.close();
    await dead.close();
    if (jobIds.size) await redis.del(...[...jobIds].map((id) => deliveryMarkerKey(EMAIL_QUEUE_NAME, id)));
    redis.disconnect();
    await sendgrid.close();
  });

  const jobIds = new Set<string>();
  const port = () => createEmailPort({ queue: producer, projectId: 'proj-1', verifiedDomains: ['Example.com'], apiKeyEncrypted });

  async function enqueue(subject: string): Promise<Job<EmailJobData>> {
    const before = new Set((await producer.getJobs()).map((job) => job.id));
    await port().enqueue({ to: 'ada@customer.test', from: 'Shop <orders@example.com>', subject, body: `Hello (${subject})` });
    const job = (await producer.getJobs()).find((candidate) => !before.has(candidate.id) && candidate.data.message.subject === subject)!;
    jobIds.add(job.id!);
    return job;
  }

  const settled = (id: string) =>
    waitUntil(
      () => producer.getJobState(id),
      (state) => state === 'completed' || state === 'failed',
      `job ${id} to settle`,
    );

  it('enqueues without waiting for delivery, keeping the SendGrid key encrypted in the job', async () => {
    const job = await enqueue('rate limited');
    expect(job.data.api_key_encrypted).toBe(apiKeyEncrypted);
    expect(JSON.stringify(job.data)).not.toContain('SG.test-key');
    expect(job.data.project_id).toBe('proj-1');
    expect(await settled(job.id!)).toBe('completed');
    expect(sendgrid.accepted('rate limited')).toBe(1);
  });

  it('delivers exactly once after two provider 500s, through @sendgrid/mail with the decrypted key', async () => {
    const job = await enqueue('two failures then ok');
    expect(await settled(job.id!)).toBe('completed');
    const attempts = sendgrid.deliveries.filter((d) => d.subject === 'two failures then ok');
    expect(attempts.map((d) => d.status)).toEqual([500, 503, 202]);
    expect(sendgrid.accepted('two failures then ok')).toBe(1);
    const sent = attempts[2];
    expect(sent.authorization).toBe('Bearer SG.test-key');
    expect(sent.body).toMatchObject({
      from: { email: 'orders@example.com', name: 'Shop' },
      subject: 'two failures then ok',
      personalizations: [{ to: [{ email: 'ada@customer.test' }] }],
      content: [{ type: 'text/plain', value: 'Hello (two failures then ok)' }],
      custom_args: { flowgate_job_id: job.id, flowgate_project_id: 'proj-1' },
    });
    const finished = await producer.getJob(job.id!);
    expect(finished?.returnvalue).toEqual({ status: 'sent', message_id: 'msg-two failures then ok' });

    // A duplicate run of the same job (e.g. a stalled job picked up again) sends nothing.
    const again = createEmailDeliveryProcessor({ redis, secrets, sendgridBaseUrl: sendgrid.url, logger });
    expect(await again(finished as Job<EmailJobData>)).toEqual({ status: 'already_sent', message_id: null });
    expect(sendgrid.deliveries.filter((d) => d.subject === 'two failures then ok')).toHaveLength(3);
  });

  it('fails a permanent 4xx at once, without retry, and dead-letters it', async () => {
    const job = await enqueue('rejected for good');
    expect(await settled(job.id!)).toBe('failed');
    expect(sendgrid.deliveries.filter((d) => d.subject === 'rejected for good')).toHaveLength(1);
    const record = await waitUntil(
      async () => (await dead.getJobs()).map((j) => j.data as DeadJobRecord).find((r) => r.job_id === job.id),
      (found) => found !== undefined,
      'the dead-letter record',
    );
    expect(record!.failed_reason).toContain('SendGrid answered 400');
    expect(await redis.get(deliveryMarkerKey(EMAIL_QUEUE_NAME, job.id!))).toBeNull();
  });

  it('dead-letters after the last attempt when the provider stays down', async () => {
    const job = await enqueue('always down');
    expect(await settled(job.id!)).toBe('failed');
    expect(sendgrid.deliveries.filter((d) => d.subject === 'always down')).toHaveLength(3);
    expect(sendgrid.accepted('always down')).toBe(0);
    const record = await waitUntil(
      async () => (await dead.getJobs()).map((j) => j.data as DeadJobRecord).find((r) => r.job_id === job.id),
      (found) => found !== undefined,
      'the dead-letter record',
    );
    expect(record!.attempts_made).toBe(3);
  });

  it('refuses a sender domain the integration has not verified', async () => {
    await expect(
      port().enqueue({ to: 'a@b.test', from: 'Mallory <m@evil.test>', subject: 'x', body: 'y' }),
    ).rejects.toThrow('sender domain evil.test is not verified');
  });

  it('does not send when an earlier attempt died mid-send (delivery state unknown)', async () => {
    const job = await enqueue('rate limited');
    await settled(job.id!);
    const interrupted = { ...job, id: `interrupted-${randomUUID()}`, queueName: EMAIL_QUEUE_NAME, data: job.data } as Job<EmailJobData>;
    jobIds.add(interrupted.id!);
    await redis.set(deliveryMarkerKey(EMAIL_QUEUE_NAME, interrupted.id!), 'sending', 'EX', 60);
    const before = sendgrid.deliveries.length;
    const deliver = createEmailDeliveryProcessor({ redis, secrets, sendgridBaseUrl: sendgrid.url, logger });
    await expect(deliver(interrupted)).rejects.toThrow('never sent twice');
    expect(sendgrid.deliveries.length).toBe(before);
  });
});
