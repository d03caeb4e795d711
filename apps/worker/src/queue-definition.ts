import type { Logger } from '@flowgate/platform';
import type { Job } from 'bullmq';
import type { Pool } from 'pg';

/**
 * What every queue folder (`apps/worker/src/queues/<name>/index.ts`) exports as `queue`.
 * The worker discovers the folders at start: adding a queue touches only its folder.
 */
export interface QueueDefinition<Data = unknown, Result = unknown> {
  /** BullMQ queue name, e.g. `flowgate-retention`; producers add jobs to it. */
  name: string;
  /**
   * Runs in total, the first one included. After the last failed run the job stays in the
   * queue's failed set and a record goes to `<name>-dead`. This policy belongs to the queue:
   * the worker applies it to every job, whatever options the producer gave.
   */
  attempts: number;
  /** Exponential backoff: the n-th retry waits `backoffMs * 2^(n-1)` ms. */
  backoffMs: number;
  /** Jobs run in parallel by one worker process (default 1). */
  concurrency?: number;
  /**
   * How long a job's lock lasts without renewal (BullMQ's lockDuration, default 30 s): a job
   * whose worker died is run again by another worker after about this much (twice at most).
   */
  lockDurationMs?: number;
  /** A repeatable job, kept by a BullMQ job scheduler (idempotent across replicas and restarts). */
  schedule?: QueueSchedule<Data>;
  /**
   * Called once at start with the process's shared resources: read and validate the queue's
   * own configuration here (a ConfigError stops the worker at boot with one line), build
   * clients, and return the job handler.
   */
  setup(context: QueueContext): QueueHandler<Data, Result> | Promise<QueueHandler<Data, Result>>;
}

export interface QueueSchedule<Data> {
  /** Name of the scheduled jobs. */
  jobName: string;
  /** Cron pattern (evaluated in UTC), e.g. `15 0 * * *`; or use `everyMs`. */
  pattern?: string;
  everyMs?: number;
  data?: Data;
  /** Also add one job when the worker starts (e.g. catch up after downtime). */
  runAtStart?: boolean;
}

export interface QueueHandler<Data, Result> {
  process(job: Job<Data, Result>): Promise<Result>;
  /** Releases what `setup` created; called after the queue's worker has finished its jobs. */
  close?(): Promise<void>;
}

export interface QueueContext {
  /** The environment (and `.env`): queues validate their own variables with `loadConfig`. */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** One PostgreSQL pool shared by the queues, created on first use (DATABASE_URL). */
  database(): Pool;
  now(): Date;
}

/** The BullMQ job options a definition implies; producers may pass them, the worker enforces them anyway. */
export function jobOptionsOf(definition: Pick<QueueDefinition, 'attempts' | 'backoffMs'>) {
  return {
    attempts: definition.attempts,
    backoff: { type: 'exponential' as const, delay: definition.backoffMs },
    removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
    removeOnFail: false as const,
  };
}

/** Name of the queue that receives a record of every job that failed its last attempt. */
export const deadLetterQueueName = (queueName: string): string => `${queueName}-dead`;

/** The record written to `<queue>-dead`. */
export interface DeadJobRecord {
  queue: string;
  job_id: string | null;
  job_name: string;
  data: unknown;
  failed_reason: string;
  attempts_made: number;
  failed_at: string;
}
