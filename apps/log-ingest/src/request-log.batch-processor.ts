import { performance } from 'node:perf_hooks';
import type { RequestLogEvent } from '@flowgate/contracts';
import { backoffMs, type Logger } from '@flowgate/platform';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { Coalescer } from './coalescer';
import type { DeadLetter, DeadLetterPublisher } from './dead-letter.publisher';
import type { LogIngestMetrics } from './log-ingest.metrics';
import { decodeRequestLogMessage, eventBytes } from './request-log.decoder';
import { isDataError, type RequestLogRepository } from './request-log.repository';
import { setTimeout as sleep } from 'node:timers/promises';

interface Entry {
  event: RequestLogEvent;
  /** The Kafka message the event came in. */
  message: KafkaMessage;
  /** The event's own text when the message packs several events (see ownMessage). */
  line?: string;
}

/** The message a dead letter of one event carries: its own line of a packed message, or the message itself. */
function ownMessage(message: KafkaMessage, decoded: { line?: string }): KafkaMessage {
  return decoded.line === undefined ? message : { ...message, value: eventBytes(decoded) };
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
  /** Least time between two offset commits (what becomes durable meanwhile shares the next one). */
  commitIntervalMs?: number;
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
/** Events handed over but not yet durable; above this the consumer stops fetching (backpressure). */
const MAX_PENDING_EVENTS = 50000;
const HEARTBEAT_SLICE_MS = 500;

/** The batch was given up because the service is stopping; nothing of it is committed. */
class BatchAbandoned extends Error {
  override name = 'BatchAbandoned';
}

/** Exponential backoff with jitter after `attempt + 1` failed writes: ~200 ms, 400 ms, 800 ms … up to `maxMs`. */
export function retryDelayMs(attempt: number, maxMs: number, random: () => number = Math.random): number {
  return backoffMs(attempt + 1, { firstMs: 200, maxMs, jitter: true, random });
}


/**
 * Turns Kafka batches into durable rows, then commits their offsets — never before.
 *
 * A batch is decoded, what can never be stored goes to the dead-letter topic, and the rest
 * is handed to the writers; the consumer may then fetch the next batch while this one is
 * written (write-behind), so fetching, decoding and writing overlap. Batches of all
 * partitions that are ready together share one transaction and one offset commit. A
 * partition's offset is committed only once that batch and every earlier batch of the
 * partition are durable. While PostgreSQL is unavailable the writes are retried with
 * backoff and, once MAX_PENDING_EVENTS are waiting, the consumer is held (paused) until
 * they are written.
 */
export class RequestLogBatchProcessor {
  private databaseAvailable = true;
  private draining = false;
  private pendingEvents = 0;
  private readonly inFlight = new Set<Promise<void>>();
  /** Per topic-partition: settles when the partition's latest batch and all before it are durable. */
  private readonly durable = new Map<string, Promise<unknown>>();
  private readonly writes: Coalescer<Entry[], void>;
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
      { maxInFlight: 1, minIntervalMs: deps.commitIntervalMs },
    );
  }

  async process(payload: EachBatchPayload): Promise<void> {
    if (this.draining) return; // not resolved: fetched again by whoever consumes next
    const { batch } = payload;
    const started = performance.now();
    const entries: Entry[] = [];
    const malformed: DeadLetter[] = [];
    for (const message of batch.messages) {
      // One message may carry several events (NDJSON); each is checked, stored or dead-lettered on its own.
      for (const decoded of decodeRequestLogMessage(message.value)) {
        if (decoded.ok) entries.push({ event: decoded.event, message, line: decoded.line });
        else malformed.push({ message: ownMessage(message, decoded), partition: batch.partition, rejection: decoded.rejection });
      }
    }

    const stored = this.store(entries, malformed, batch.partition);
    stored.catch(() => undefined); // observed through the chain below
    const key = `${batch.topic}:${batch.partition}`;
    const durable = (this.durable.get(key) ?? Promise.resolve()).then(() => stored);
    this.durable.set(key, durable);
    // The fetch position moves on now; the committed offset waits for `durable`.
    payload.resolveOffset(batch.lastOffset());

    const count = entries.length + malformed.length; // events, not messages
    // Counted until durable: backpressure is about unwritten events, not about offsets waiting for their commit.
    this.pendingEvents += count;
    const written = () => {
      this.pendingEvents -= count;
    };
    void durable.then(written, written);
    const done: Promise<void> = durable
      .then(async (refused) => {
        await this.commits.submit({
          topic: batch.topic,
          partition: batch.partition,
          offset: (BigInt(batch.lastOffset()) + 1n).toString(),
          commit: payload.commitOffsetsIfNecessary,
        });
        this.recordBatch(count, started, [...malformed, ...(refused ?? [])], batch.partition);
      })
      .catch((error) => {
        if (error instanceof BatchAbandoned) return;
        // The rows are durable; only the commit failed (rebalance, broker away): a later
        // commit of the partition covers them, or they are redelivered and skipped.
        this.deps.logger.warn({ err: error, partition: batch.partition }, 'offset commit failed; a later commit or a redelivery covers it');
      })
      .finally(() => {
        this.inFlight.delete(done);
        if (this.durable.get(key) === durable) this.durable.delete(key);
      });
    this.inFlight.add(done);
    await this.holdWhileBehind(payload);
  }

  /**
   * Stops taking batches, lets the ones in hand be written and committed (a first attempt
   * each; no retries), and resolves when nothing is in flight.
   */
  async drain(): Promise<void> {
    this.draining = true;
    this.commits.hurry();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Dead-letters the malformed events, writes the rest; resolves (with what PostgreSQL refused) once durable. */
  private async store(entries: Entry[], malformed: DeadLetter[], partition: number): Promise<DeadLetter[]> {
    await this.retrying('dead-letter topic', () => this.deps.deadLetters.publish(malformed));
    const refused = await this.retrying('PostgreSQL', () => this.write(entries, partition));
    await this.retrying('dead-letter topic', () => this.deps.deadLetters.publish(refused));
    return refused;
  }

  private async write(entries: Entry[], partition: number): Promise<DeadLetter[]> {
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

  /**
   * Writes the entries; when PostgreSQL refuses the data itself, splits them until the
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
        return { inserted: 0, refused: [{ message: ownMessage(entries[0].message, entries[0]), partition, rejection: { reason: 'rejected_by_database', detail } }] };
      }
      const middle = entries.length >>> 1;
      const left = await this.writeIsolating(entries.slice(0, middle), partition);
      const right = await this.writeIsolating(entries.slice(middle), partition);
      return { inserted: left.inserted + right.inserted, refused: [...left.refused, ...right.refused] };
    }
  }

  private async retrying<T>(dependency: 'PostgreSQL' | 'dead-letter topic', step: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await step();
        if (dependency === 'PostgreSQL') this.setDatabaseAvailable(true);
        else if (attempt > 0) this.deps.logger.info({ dependency }, 'dependency available again; resuming');
        return result;
      } catch (error) {
        this.deps.metrics.writeFailures.inc();
        if (dependency === 'PostgreSQL') this.setDatabaseAvailable(false);
        if (this.draining) throw new BatchAbandoned();
        const delay = retryDelayMs(attempt, this.deps.retryMaxMs);
        this.deps.logger.warn(
          { dependency, attempt: attempt + 1, retry_in_ms: delay, err: error },
          'batch not written; keeping it and retrying (offsets not committed)',
        );
        await sleep(delay);
        if (this.draining) throw new BatchAbandoned();
      }
    }
  }

  /** Backpressure: while too much is unwritten, hold the consumer here (keeping its session alive). */
  private async holdWhileBehind(payload: EachBatchPayload): Promise<void> {
    while (this.pendingEvents > MAX_PENDING_EVENTS && payload.isRunning() && !payload.isStale()) {
      const oldest = this.inFlight.values().next().value;
      await Promise.race([oldest, sleep(HEARTBEAT_SLICE_MS)]);
      await payload.heartbeat();
    }
  }

  private recordWritten(events: number, inserted: number): void {
    this.deps.metrics.recordInserted(inserted);
    this.deps.metrics.duplicatesSkipped.inc(events - inserted);
  }

  private recordBatch(count: number, started: number, deadLettered: DeadLetter[], partition: number): void {
    const { metrics, logger } = this.deps;
    metrics.eventsConsumed.inc(count);
    for (const letter of deadLettered) metrics.recordDeadLettered(letter.rejection.reason);
    metrics.batchSize.observe(count);
    metrics.batchDuration.observe((performance.now() - started) / 1000);
    if (deadLettered.length > 0) {
      logger.warn({ partition, dead_lettered: deadLettered.length, first: deadLettered[0].rejection }, 'sent malformed request-log events to the dead-letter topic');
    }
  }

  private setDatabaseAvailable(available: boolean): void {
    if (this.databaseAvailable === available) return;
    this.databaseAvailable = available;
    this.deps.metrics.databaseAvailable.set(available ? 1 : 0);
    this.deps.logger[available ? 'info' : 'error'](
      available ? 'PostgreSQL writes succeed again; consuming' : 'PostgreSQL writes fail; retrying, the consumer is held once the backlog is full',
    );
    this.deps.onDatabaseAvailability?.(available);
  }
}
