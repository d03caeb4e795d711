import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export type QueueCounts = () => Promise<Array<{ queue: string; state: string; count: number }>>;

/** The worker's metrics, on a registry of their own (one per runtime, so tests can run several). */
export function createWorkerMetrics(counts: QueueCounts) {
  const registry = new Registry();
  return {
    registry,
    completed: new Counter({
      name: 'flowgate_worker_jobs_completed_total',
      help: 'Jobs that succeeded, by queue',
      labelNames: ['queue'] as const,
      registers: [registry],
    }),
    attemptsFailed: new Counter({
      name: 'flowgate_worker_job_attempts_failed_total',
      help: 'Failed runs of jobs (retried or final), by queue',
      labelNames: ['queue'] as const,
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'flowgate_worker_jobs_dead_lettered_total',
      help: 'Jobs that failed their last attempt and were recorded in <queue>-dead, by queue',
      labelNames: ['queue'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'flowgate_worker_job_duration_seconds',
      help: 'Run time of one attempt, by queue',
      labelNames: ['queue'] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    jobs: new Gauge({
      name: 'flowgate_worker_queue_jobs',
      help: 'Jobs per queue and state (waiting, active, delayed, failed, dead …)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const { queue, state, count } of await counts().catch(() => [])) this.set({ queue, state }, count);
      },
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
