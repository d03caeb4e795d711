import { performance } from 'node:perf_hooks';
import type { RequestLogEvent } from '@flowgate/contracts';
import type { Logger } from '@flowgate/platform';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { Coalescer } from './coalescer';
import type { DeadLetter, DeadLetterPublisher } from './dead-letter.publisher';
import type { LogIngestMetrics } from './log-ingest.metrics';
import { decodeRequestLogEvent } from './request-log.decoder';
import { isDataError, type RequestLogRepository } from './request-log.repository';

interface Entry {
  event: RequestLogEvent;
  message: KafkaMessage;
}

export interface BatchProcessorDeps {
  repository: Pick<RequestLogRepository, 'write'>;
  deadLetters: Pick<DeadLetterPublisher, 'publish'>;
  metrics: LogIngestMetrics;
  logger: Logger;
  /** Upper bound of the pause between two attempts while a dependency is down. */
  retryMaxMs: number;
  /** PostgreSQL transactions running at once (batches arriving meanwhile are grouped). */
  writers: number;
  /** Told when writes to PostgreSQL start failing and when they succeed again. */
  onDatabaseAvailability?: (available: boolean) => void;
}

interface OffsetToCommit {
  topic: string;
  partition: number;
  offset: string;
  commit: EachBatchPayload['commitOffsetsIfNecessary'];
}

/** Rows in one transaction at most; a busier pipeline runs `writers` of them side by side. */
const MAX_ROWS_PER_TRANSACTION = 20000;

/** The batch was given up because the consumer is stopping or lost the partition; nothing is committed. */
class BatchAbandoned extends Error {
  override name = 'BatchAbandoned';
}

/** Exponential backoff with jitter: ~200 ms, 400 ms, 800 ms … up to `maxMs`. */
export function retryDelayMs(attempt: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, 200 * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const HEARTBEAT_SLICE_MS = 500;

/**
 * Handles one Kafka batch (one partition): decodes it, dead-letters what can never be
 * stored, writes the rest (in one transaction with the other partitions' batches that are
 * ready at the same time), and only then commits the offsets. While
 * PostgreSQL (or the dead-letter topic) is unavailable it keeps the batch, retries with
 * backoff and keeps the group session alive; it commits nothing until the rows are durable.
 */
export class RequestLogBatchProcessor {
  private databaseAvailable = true;
  /** Batches of several partitions share one transaction… */
  private readonly writes: Coalescer<Entry[], void>;
  /** …and one offset commit. */
  private readonly commits: Coalescer<OffsetToCommit, void>;

  constructor(private readonly deps: BatchProcessorDeps) {
    this.writes = new Coalescer<Entry[], void>(
      async (batches) => {
        const events = batches.flat().map((entry) => entry.event);
        const { inserted } = await deps.repository.write(events);
        this.recordWritten(events.length, inserted);
        return batches.map(() => undefined);
      },
      { maxInFlight: deps.writers, maxWeight: MAX_ROWS_PER_TRANSACTION, weight: (entries) => entries.length },
    );
    this.commits = new Coalescer<OffsetToCommit, void>(
      async (offsets) => {
        const topics = new Map<string, Array<{ partition: number; offset: string }>>();
        for (const { topic, partition, offset } of offsets) topics.set(topic, [...(topics.get(topic) ?? []), { partition, offset }]);
        await offsets[0].commit({ topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })) });
        return offsets.map(() => undefined);
      },
      { maxInFlight: 1 },
    );
  }

  async process(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const started = performance.now();
    const entries: Entry[] = [];
    const malformed: DeadLetter[] = [];
    for (const message of batch.messages) {
      const decoded = decodeRequestLogEvent(message.value);
      if (decoded.ok) entries.push({ event: decoded.event, message });
      else malformed.push({ message, partition: batch.partition, rejection: decoded.rejection });
    }

    let refused: DeadLetter[];
    try {
      await this.retrying(payload, 'dead-letter topic', () => this.deps.deadLetters.publish(malformed));
      refused = await this.retrying(payload, 'PostgreSQL', () => this.store(entries, batch.partition));
      await this.retrying(payload, 'dead-letter topic', () => this.deps.deadLetters.publish(refused));
    } catch (error) {
      if (error instanceof BatchAbandoned) return;
      throw error;
    }

    // Only now are the rows durable: the offsets may move past them.
    payload.resolveOffset(batch.lastOffset());
    await this.commits.submit({
      topic: batch.topic,
      partition: batch.partition,
      offset: (BigInt(batch.lastOffset()) + 1n).toString(),
      commit: payload.commitOffsetsIfNecessary,
    });

    const { metrics } = this.deps;
    metrics.eventsConsumed.inc(batch.messages.length);
    for (const letter of [...malformed, ...refused]) metrics.recordDeadLettered(letter.rejection.reason);
    metrics.batchSize.observe(batch.messages.length);
    metrics.batchDuration.observe((performance.now() - started) / 1000);
    if (malformed.length + refused.length > 0) {
      this.deps.logger.warn(
        { partition: batch.partition, dead_lettered: malformed.length + refused.length, first: (malformed[0] ?? refused[0]).rejection },
        'sent malformed request-log events to the dead-letter topic',
      );
    }
  }

  /** Stores the batch's events (grouped with other partitions' batches); returns the events PostgreSQL refused. */
  private async store(entries: Entry[], partition: number): Promise<DeadLetter[]> {
    if (entries.length === 0) return [];
    try {
      await this.writes.submit(entries);
      return [];
    } catch (error) {
      if (!isDataError(error)) throw error;
      // Some event of the group is unstorable: this batch is written on its own, bisected if it is the culprit.
      const { inserted, refused } = await this.writeIsolating(entries, partition);
      this.recordWritten(entries.length - refused.length, inserted);
      return refused;
    }
  }

  private recordWritten(events: number, inserted: number): void {
    this.deps.metrics.recordInserted(inserted);
    this.deps.metrics.duplicatesSkipped.inc(events - inserted);
  }

  /**
   * Writes the entries; when PostgreSQL refuses the data itself, splits the batch until the
   * offending events are isolated, so one bad row never blocks the partition.
   */
  private async writeIsolating(entries: Entry[], partition: number): Promise<{ inserted: number; refused: DeadLetter[] }> {
    try {
      const { inserted } = await this.deps.repository.write(entries.map((entry) => entry.event));
      return { inserted, refused: [] };
    } catch (error) {
      if (!isDataError(error)) throw error;
      if (entries.length === 1) {
        const detail = (error as Error).message;
        return { inserted: 0, refused: [{ message: entries[0].message, partition, rejection: { reason: 'rejected_by_database', detail } }] };
      }
      const middle = entries.length >>> 1;
      const left = await this.writeIsolating(entries.slice(0, middle), partition);
      const right = await this.writeIsolating(entries.slice(middle), partition);
      return { inserted: left.inserted + right.inserted, refused: [...left.refused, ...right.refused] };
    }
  }

  private async retrying<T>(payload: EachBatchPayload, dependency: string, step: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      if (!payload.isRunning() || payload.isStale()) throw new BatchAbandoned();
      try {
        const result = await step();
        if (dependency === 'PostgreSQL') this.setDatabaseAvailable(true);
        else if (attempt > 0) this.deps.logger.info({ dependency }, 'dependency available again; resuming');
        return result;
      } catch (error) {
        this.deps.metrics.writeFailures.inc();
        if (dependency === 'PostgreSQL') this.setDatabaseAvailable(false);
        const delay = retryDelayMs(attempt, this.deps.retryMaxMs);
        this.deps.logger.warn(
          { dependency, partition: payload.batch.partition, attempt: attempt + 1, retry_in_ms: delay, err: error },
          'batch not written; keeping it and retrying (offsets not committed)',
        );
        await this.waitKeepingSession(payload, delay);
      }
    }
  }

  private async waitKeepingSession(payload: EachBatchPayload, delayMs: number): Promise<void> {
    const until = Date.now() + delayMs;
    while (payload.isRunning() && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(HEARTBEAT_SLICE_MS, until - Date.now())));
      await payload.heartbeat();
    }
  }

  private setDatabaseAvailable(available: boolean): void {
    if (this.databaseAvailable === available) return;
    this.databaseAvailable = available;
    this.deps.metrics.databaseAvailable.set(available ? 1 : 0);
    this.deps.logger[available ? 'info' : 'error'](
      available ? 'PostgreSQL writes succeed again; consuming' : 'PostgreSQL writes fail; pausing consumption and retrying',
    );
    this.deps.onDatabaseAvailability?.(available);
  }
}
