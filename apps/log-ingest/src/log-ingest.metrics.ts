import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RejectionReason } from './request-log.decoder';

/** Counts events per second over a sliding window of whole seconds. */
export class RateMeter {
  private readonly buckets: number[];
  private second = 0;

  constructor(
    private readonly windowSeconds = 10,
    private readonly now: () => number = Date.now,
  ) {
    this.buckets = new Array(windowSeconds).fill(0);
    this.second = Math.floor(this.now() / 1000);
  }

  add(count: number): void {
    this.advance();
    this.buckets[this.second % this.windowSeconds] += count;
  }

  perSecond(): number {
    this.advance();
    return this.buckets.reduce((sum, n) => sum + n, 0) / this.windowSeconds;
  }

  private advance(): void {
    const current = Math.floor(this.now() / 1000);
    for (let s = Math.max(this.second + 1, current - this.windowSeconds + 1); s <= current; s += 1) {
      this.buckets[s % this.windowSeconds] = 0;
    }
    this.second = Math.max(this.second, current);
  }
}

export type LagSource = () => Promise<Array<{ partition: number; lag: number }>>;

/** The log-ingest metrics, on a registry of their own (one per instance, so tests can run several). */
export function createLogIngestMetrics(lag: LagSource) {
  const registry = new Registry();
  const rate = new RateMeter();
  const metrics = {
    registry,
    eventsConsumed: new Counter({
      name: 'flowgate_log_ingest_events_consumed_total',
      help: 'Events handled (stored, already stored, or dead-lettered); a Kafka message may carry several',
      registers: [registry],
    }),
    rowsInserted: new Counter({
      name: 'flowgate_log_ingest_rows_inserted_total',
      help: 'New rows written to request_logs',
      registers: [registry],
    }),
    duplicatesSkipped: new Counter({
      name: 'flowgate_log_ingest_duplicates_skipped_total',
      help: 'Events that were already stored (redelivered after a crash or a rebalance)',
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'flowgate_log_ingest_dead_lettered_total',
      help: 'Events sent to the dead-letter topic, by reason',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    writeFailures: new Counter({
      name: 'flowgate_log_ingest_write_failures_total',
      help: 'Failed attempts to write a batch (PostgreSQL or the dead-letter topic unavailable); the batch is retried',
      registers: [registry],
    }),
    batchDuration: new Histogram({
      name: 'flowgate_log_ingest_batch_duration_seconds',
      help: 'From receiving a batch to its offsets committed',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    batchSize: new Histogram({
      name: 'flowgate_log_ingest_batch_size',
      help: 'Events per batch (the messages of one partition fetched together)',
      buckets: [1, 10, 50, 100, 500, 1000, 2500, 5000, 10000],
      registers: [registry],
    }),
    databaseAvailable: new Gauge({
      name: 'flowgate_log_ingest_database_available',
      help: '1 while writes to PostgreSQL succeed, 0 while the consumer is paused and retrying',
      registers: [registry],
    }),
    rowsPerSecond: new Gauge({
      name: 'flowgate_log_ingest_rows_per_second',
      help: 'Rows inserted per second over the last 10 seconds',
      registers: [registry],
      collect() {
        this.set(rate.perSecond());
      },
    }),
    consumerLag: new Gauge({
      name: 'flowgate_log_ingest_consumer_lag',
      help: 'Messages in the topic not yet committed by the consumer group, by partition',
      labelNames: ['partition'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const { partition, lag: value } of await lag().catch(() => [])) this.set({ partition: String(partition) }, value);
      },
    }),
    recordInserted(count: number): void {
      metrics.rowsInserted.inc(count);
      rate.add(count);
    },
    recordDeadLettered(reason: RejectionReason, count = 1): void {
      metrics.deadLettered.inc({ reason }, count);
    },
  };
  metrics.databaseAvailable.set(1);
  return metrics;
}

export type LogIngestMetrics = ReturnType<typeof createLogIngestMetrics>;
