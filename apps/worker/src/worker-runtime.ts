import { bullmqPrefix, createRedisClient, type Logger, type RedisClient } from '@flowgate/platform';
import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Pool } from 'pg';
import type { Registry } from 'prom-client';
import {
  deadLetterQueueName,
  jobOptionsOf,
  type DeadJobRecord,
  type QueueContext,
  type QueueDefinition,
  type QueueHandler,
} from './queue-definition';
import { createWorkerMetrics } from './worker.metrics';

export interface WorkerRuntimeOptions {
  definitions: QueueDefinition[];
  redisUrl: string;
  /** Seeds of a Redis Cluster (REDIS_CLUSTER_NODES); null or absent = the single Redis at `redisUrl`. */
  redisClusterNodes?: string[] | null;
  databaseUrl: string;
  /** BullMQ key prefix; producers must use the same one (a hash tag in cluster mode, see `bullmqPrefix`). */
  prefix: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

export interface WorkerRuntime {
  /** Sets every queue up, starts its worker, and registers its schedule. */
  start(): Promise<void>;
  /** Stops taking jobs, lets running jobs finish, then closes queues, handlers and clients. */
  stop(): Promise<void>;
  readonly metrics: Registry;
  isReady(): boolean;
  /** The BullMQ queue of a definition (to add jobs, or inspect it). */
  queue(name: string): Queue;
}

interface Running {
  definition: QueueDefinition;
  handler: QueueHandler<unknown, unknown>;
  queue: Queue;
  dead: Queue;
  worker: Worker;
}

const COUNTED_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed'] as const;

/** Runs the BullMQ workers of the given queue definitions, with retries, dead-lettering and metrics. */
export function createWorkerRuntime(options: WorkerRuntimeOptions): WorkerRuntime {
  const { logger } = options;
  const target = { url: options.redisUrl, clusterNodes: options.redisClusterNodes ?? null };
  const prefix = bullmqPrefix(options.prefix, target);
  // A cluster client is shared by every queue and worker (BullMQ duplicates it for blocking reads) and closed at stop.
  const clusterClient: RedisClient | null = target.clusterNodes ? createRedisClient(target, { node: { maxRetriesPerRequest: null } }) : null;
  const connection: ConnectionOptions = clusterClient ?? { url: options.redisUrl, maxRetriesPerRequest: null };
  const running = new Map<string, Running>();
  let pool: Pool | null = null;
  let stopping = false;

  const context: QueueContext = {
    env: options.env ?? process.env,
    logger,
    now: options.now ?? (() => new Date()),
    database() {
      if (!pool) {
        pool = new Pool({ connectionString: options.databaseUrl, max: 4, application_name: 'flowgate-worker' });
        pool.on('error', (error) => logger.warn({ err: error }, 'idle PostgreSQL connection closed'));
      }
      return pool;
    },
  };

  const metrics = createWorkerMetrics(async () => {
    const rows: Array<{ queue: string; state: string; count: number }> = [];
    for (const { definition, queue, dead } of running.values()) {
      const counts = await queue.getJobCounts(...COUNTED_STATES);
      for (const state of COUNTED_STATES) rows.push({ queue: definition.name, state, count: counts[state] ?? 0 });
      rows.push({ queue: definition.name, state: 'dead', count: await dead.count() });
    }
    return rows;
  });

  async function deadLetter(definition: QueueDefinition, dead: Queue, job: Job, error: Error): Promise<void> {
    const record: DeadJobRecord = {
      queue: definition.name,
      job_id: job.id ?? null,
      job_name: job.name,
      data: job.data,
      failed_reason: error.message,
      attempts_made: job.attemptsMade,
      failed_at: new Date(job.finishedOn ?? Date.now()).toISOString(),
    };
    await dead.add(job.name, record, { removeOnComplete: false, removeOnFail: false });
    metrics.deadLettered.inc({ queue: definition.name });
    logger.error({ queue: definition.name, job_id: job.id, attempts: job.attemptsMade, reason: error.message }, 'job failed its last attempt; dead-lettered');
  }

  async function startQueue(definition: QueueDefinition, handler: QueueHandler<unknown, unknown>): Promise<void> {
    const jobOptions = jobOptionsOf(definition);
    const queue = new Queue(definition.name, { connection, prefix, defaultJobOptions: jobOptions });
    const dead = new Queue(deadLetterQueueName(definition.name), { connection, prefix });
    const labels = { queue: definition.name };
    const worker = new Worker(
      definition.name,
      async (job: Job) => {
        // The definition owns the retry policy, whatever options the producer set.
        job.opts.attempts = jobOptions.attempts;
        job.opts.backoff = jobOptions.backoff;
        const end = metrics.duration.startTimer(labels);
        try {
          return await handler.process(job);
        } finally {
          end();
        }
      },
      {
        connection,
        prefix,
        concurrency: definition.concurrency ?? 1,
        removeOnComplete: jobOptions.removeOnComplete,
        ...(definition.lockDurationMs === undefined ? {} : { lockDuration: definition.lockDurationMs, stalledInterval: definition.lockDurationMs }),
      },
    );
    worker.on('completed', () => metrics.completed.inc(labels));
    worker.on('failed', (job, error) => {
      metrics.attemptsFailed.inc(labels);
      // finishedOn is set only when the job moved to the failed set for good (no retry left).
      if (!job || job.finishedOn === undefined) return;
      deadLetter(definition, dead, job, error).catch((failure) =>
        logger.error({ err: failure, queue: definition.name, job_id: job.id }, 'could not write the dead-letter record; the job stays in the failed set'),
      );
    });
    worker.on('error', (error) => logger.error({ err: error, queue: definition.name }, 'worker error'));
    running.set(definition.name, { definition, handler, queue, dead, worker });

    const { schedule } = definition;
    if (schedule) {
      await queue.upsertJobScheduler(
        `${definition.name}-schedule`,
        schedule.pattern ? { pattern: schedule.pattern, tz: 'UTC' } : { every: schedule.everyMs },
        { name: schedule.jobName, data: schedule.data, opts: jobOptions },
      );
      if (schedule.runAtStart) await queue.add(schedule.jobName, schedule.data, jobOptions);
    }
    logger.info({ queue: definition.name, attempts: definition.attempts, schedule: schedule?.pattern ?? schedule?.everyMs }, 'queue started');
  }

  return {
    metrics: metrics.registry,

    async start() {
      const names = new Set<string>();
      for (const definition of options.definitions) {
        if (names.has(definition.name)) throw new Error(`two queue definitions are named ${definition.name}`);
        names.add(definition.name);
      }
      // Every queue's configuration is checked before any worker takes a job.
      const handlers: Array<QueueHandler<unknown, unknown>> = [];
      try {
        for (const definition of options.definitions) handlers.push((await definition.setup(context)) as QueueHandler<unknown, unknown>);
      } catch (error) {
        await Promise.all(handlers.map((handler) => handler.close?.().catch(() => undefined)));
        throw error;
      }
      for (const [index, definition] of options.definitions.entries()) await startQueue(definition, handlers[index]);
    },

    async stop() {
      stopping = true;
      // close() waits for the jobs in hand; no new job is taken meanwhile.
      await Promise.all([...running.values()].map(({ worker }) => worker.close()));
      for (const { definition, handler, queue, dead } of running.values()) {
        await handler.close?.().catch((error) => logger.warn({ err: error, queue: definition.name }, 'queue handler close failed'));
        await queue.close();
        await dead.close();
      }
      const open = pool as Pool | null;
      await open?.end();
      await clusterClient?.quit().catch(() => clusterClient.disconnect());
    },

    isReady: () => !stopping && running.size === options.definitions.length && [...running.values()].every(({ worker }) => worker.isRunning()),

    queue(name) {
      const found = running.get(name);
      if (!found) throw new Error(`no queue named ${name} is running`);
      return found.queue;
    },
  };
}
