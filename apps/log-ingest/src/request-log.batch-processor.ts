import { performance } from 'node:perf_hooks';
import type { RequestLogEvent } from '@flowgate/contracts';
import type { Logger } from '@flowgate/platform';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
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
  /** Told when writes to PostgreSQL start failing and when they succeed again. */
  onDatabaseAvailability?: (available: boolean) => void;
}

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
 * stored, writes the rest in one transaction, and only then commits the offsets. While
 * PostgreSQL (or the dead-letter topic) is unavailable it keeps the batch, retries with
 * backoff and keeps the group session alive; it commits nothing until the rows are durable.
 */
export class RequestLogBatchProcessor {
  private databaseAvailable = true;

  constructor(private readonly deps: BatchProcessorDeps) {}

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

    let inserted: number;
    let refused: DeadLetter[];
    try {
      await this.retrying(payload, 'dead-letter topic', () => this.deps.deadLetters.publish(malformed));
      ({ inserted, refused } = await this.retrying(payload, 'PostgreSQL', () => this.writeIsolating(entries, batch.partition)));
      await this.retrying(payload, 'dead-letter topic', () => this.deps.deadLetters.publish(refused));
    } catch (error) {
      if (error instanceof BatchAbandoned) return;
      throw error;
    }

    payload.resolveOffset(batch.lastOffset());
    await payload.commitOffsetsIfNecessary({
      topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: (BigInt(batch.lastOffset()) + 1n).toString() }] }],
    });

    const { metrics } = this.deps;
    metrics.eventsConsumed.inc(batch.messages.length);
    metrics.recordInserted(inserted);
    metrics.duplicatesSkipped.inc(entries.length - refused.length - inserted);
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
