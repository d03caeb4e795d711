import { randomUUID } from 'node:crypto';
import { createLogger } from '@flowgate/platform';
import { Queue, type Job } from 'bullmq';
import Redis from 'ioredis';
import { waitUntil } from '@flowgate/testing';
import { deadLetterQueueName, type DeadJobRecord, type QueueDefinition } from './queue-definition';
import { discoverQueues } from './queues';
import { createWorkerRuntime, type WorkerRuntime } from './worker-runtime';
import { setTimeout as sleep } from 'node:timers/promises';

jest.setTimeout(60000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger('worker-test', 'silent');


/** Deletes every key under a test's own BullMQ prefix. */
async function dropPrefix(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function metric(runtime: WorkerRuntime, name: string, queue: string): Promise<number> {
  const values = (await runtime.metrics.getSingleMetric(name)?.get())?.values ?? [];
  return values.find((v) => v.labels.queue === queue)?.value ?? 0;
}

describe('worker runtime (BullMQ on the real Redis)', () => {
  const prefix = `fgtest-${randomUUID().slice(0, 8)}`;
  const runs: Record<string, number[]> = {};
  const record = (job: Job) => (runs[String(job.data.key)] ??= []).push(Date.now());

  const failing: QueueDefinition<{ key: string }> = {
    name: 'test-always-fails',
    attempts: 3,
    backoffMs: 100,
    setup: () => ({
      async process(job) {
        record(job);
        throw new Error(`boom ${runs[job.data.key].length}`);
      },
    }),
  };
  const flaky: QueueDefinition<{ key: string }, string> = {
    name: 'test-fails-once',
    attempts: 3,
    backoffMs: 50,
    setup: () => ({
      async process(job) {
        record(job);
        if (runs[job.data.key].length === 1) throw new Error('first run fails');
        return 'done';
      },
    }),
  };
  let slowJobFinished = false;
  let releaseSlowJob: () => void = () => undefined;
  const slowStarted = new Promise<void>((resolve) => {
    releaseSlowJob = resolve;
  });
  const slow: QueueDefinition<{ key: string }> = {
    name: 'test-slow',
    attempts: 1,
    backoffMs: 10,
    setup: () => ({
      async process() {
        releaseSlowJob();
        await sleep(500);
        slowJobFinished = true;
      },
    }),
  };
  let scheduledRuns = 0;
  const scheduled: QueueDefinition<{ key: string }> = {
    name: 'test-scheduled',
    attempts: 1,
    backoffMs: 10,
    schedule: { jobName: 'tick', everyMs: 3_600_000, data: { key: 'tick' }, runAtStart: true },
    setup: () => ({
      async process() {
        scheduledRuns += 1;
      },
    }),
  };

  const runtime = createWorkerRuntime({
    definitions: [failing, flaky, slow, scheduled] as QueueDefinition[],
    redisUrl,
    databaseUrl: process.env.DATABASE_URL!,
    prefix,
    logger,
  });
  let stopped = false;

  beforeAll(() => runtime.start());
  afterAll(async () => {
    if (!stopped) await runtime.stop();
    await dropPrefix(prefix);
  });

  it('retries with exponential backoff and dead-letters the job after its last attempt', async () => {
    // The producer gives no options: the queue definition's policy applies anyway.
    const queue = runtime.queue(failing.name);
    const job = await queue.add('work', { key: 'fails' });
    await waitUntil(() => job.getState(), (state) => state === 'failed', 'the job to fail for good');

    expect(runs.fails).toHaveLength(3);
    const [first, second, third] = runs.fails;
    expect(second - first).toBeGreaterThanOrEqual(100);
    expect(third - second).toBeGreaterThanOrEqual(200);

    const failed = await queue.getJob(job.id!); // kept in the failed set
    expect(failed?.attemptsMade).toBe(3);
    expect(failed?.failedReason).toBe('boom 3');

    const deadQueue = new Queue(deadLetterQueueName(failing.name), { connection: { url: redisUrl }, prefix });
    try {
      const letters = await waitUntil(() => deadQueue.getWaiting(), (jobs) => jobs.length === 1, 'the dead-letter record');
      const letter = letters[0].data as DeadJobRecord;
      expect(letter).toMatchObject({ queue: failing.name, job_id: job.id, job_name: 'work', data: { key: 'fails' }, failed_reason: 'boom 3', attempts_made: 3 });
    } finally {
      await deadQueue.close();
    }
    expect(await metric(runtime, 'flowgate_worker_jobs_dead_lettered_total', failing.name)).toBe(1);
    expect(await metric(runtime, 'flowgate_worker_job_attempts_failed_total', failing.name)).toBe(3);
  });

  it('completes a job that succeeds on a retry, without a dead-letter record', async () => {
    const job = await runtime.queue(flaky.name).add('work', { key: 'flaky' });
    await waitUntil(() => job.getState(), (state) => state === 'completed', 'completion');
    expect(runs.flaky).toHaveLength(2);
    expect((await runtime.queue(flaky.name).getJob(job.id!))?.returnvalue).toBe('done');
    expect(await metric(runtime, 'flowgate_worker_jobs_dead_lettered_total', flaky.name)).toBe(0);
    expect(await metric(runtime, 'flowgate_worker_jobs_completed_total', flaky.name)).toBe(1);
  });

  it('registers the schedule once and runs the job at start', async () => {
    await waitUntil(async () => scheduledRuns, (n) => n >= 1, 'the start-up run');
    const schedulers = await runtime.queue(scheduled.name).getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toEqual([`${scheduled.name}-schedule`]);
    expect(schedulers[0].every).toBe(3_600_000);
  });

  it('reports queue counts in the metrics', async () => {
    const text = await runtime.metrics.metrics();
    expect(text).toContain(`flowgate_worker_queue_jobs{queue="${failing.name}",state="dead"} 1`);
    expect(text).toContain(`flowgate_worker_queue_jobs{queue="${failing.name}",state="failed"} 1`);
  });

  it('on stop, lets the running job finish before closing', async () => {
    await runtime.queue(slow.name).add('work', { key: 'slow' });
    await slowStarted;
    expect(runtime.isReady()).toBe(true);
    await runtime.stop();
    stopped = true;
    expect(slowJobFinished).toBe(true);
    expect(runtime.isReady()).toBe(false);
  });
});

describe('queue registry', () => {
  it('finds every queue folder, the retention queue among them', () => {
    const names = discoverQueues().map((q) => q.name);
    expect(names).toContain('flowgate-retention');
    expect(new Set(names).size).toBe(names.length);
  });
});
