import type { RequestLogEvent } from '@flowgate/contracts';
import type { Logger } from '@flowgate/platform';
import { backoffMs } from '@flowgate/platform/backoff';
import type { LogBatchSender } from './log-batch-sender';
import type { RequestLogSink } from './request-log-sink';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RequestLogBufferOptions {
  sender: LogBatchSender;
  logger: Logger;
  /** Events held at most (queued + in flight); beyond it new events are dropped and counted. */
  maxEvents: number;
  /** Characters of event JSON held at most (default `maxEvents` × EVENT_CHARS_BUDGET); beyond it likewise. */
  maxChars?: number;
  /** Messages per Kafka request (kafkajs groups messages per partition in quadratic time: keep it modest). */
  batchSize?: number;
  /** Bytes of JSON per Kafka request, below the broker's 1 MB message limit. */
  batchBytes?: number;
  /** How long the first event of a batch may wait for others. */
  lingerMs?: number;
  /** Retry delay after a failed send doubles from `retryMinMs` up to `retryMaxMs`. */
  retryMinMs?: number;
  retryMaxMs?: number;
}

const WARN_EVERY_MS = 10_000;

/**
 * Characters of JSON an event is budgeted on average while the buffer holds it: an event with
 * its request details is ~0.5–1 KB (a POST's body adds up to 4 KiB), so an outage fills the
 * buffer's memory before its count when bodies are large, and the worker's heap stays within
 * what it was given for `maxEvents` events (worker-request-log.ts).
 */
export const EVENT_CHARS_BUDGET = 1024;

/**
 * Request-log events on their way to Kafka, off the request path: `push` only appends. One
 * batch is in flight at a time (order kept); a failed batch goes back to the head of the queue
 * and is retried with backoff, so an outage only grows the queue — up to `maxEvents`
 * (100,000 by default: 100 s at 1,000 req/s) and `maxChars` of JSON. Past either bound, new
 * events are dropped, counted and warned about (at most every 10 s).
 */
export class RequestLogBuffer implements RequestLogSink {
  /** Events' JSON, oldest first. */
  private queue: string[] = [];
  private inFlight = 0;
  /** Characters of the events queued and in flight. */
  private heldChars = 0;
  private readonly maxChars: number;
  private droppedTotal = 0;
  private droppedSinceWarn = 0;
  private lastDropWarn = 0;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private failures = 0;
  private failingSince = 0;
  private lastFailureWarn = 0;
  private closed = false;
  private readonly batchSize: number;
  private readonly batchBytes: number;
  private readonly lingerMs: number;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly sendNow = (): void => {
    this.timer = null;
    this.flush();
  };

  constructor(private readonly options: RequestLogBufferOptions) {
    this.batchSize = options.batchSize ?? 2000;
    this.batchBytes = options.batchBytes ?? 512 * 1024;
    this.lingerMs = options.lingerMs ?? 50;
    this.retryMinMs = options.retryMinMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 5000;
    this.maxChars = options.maxChars ?? options.maxEvents * EVENT_CHARS_BUDGET;
  }

  /** Events waiting (queued and in flight). */
  get depth(): number {
    return this.queue.length + this.inFlight;
  }

  get dropped(): number {
    return this.droppedTotal;
  }

  push(event: RequestLogEvent): void {
    this.pushSerialized(JSON.stringify(event));
  }

  /** `value`: the event's JSON. */
  pushSerialized(value: string): void {
    if (this.queue.length + this.inFlight >= this.options.maxEvents || this.heldChars + value.length > this.maxChars) {
      this.drop();
      return;
    }
    this.heldChars += value.length;
    this.queue.push(value);
    if (this.sending === null && this.timer === null && !this.closed) {
      this.timer = setTimeout(this.sendNow, this.queue.length >= this.batchSize ? 0 : this.lingerMs);
    }
  }

  /**
   * Sends everything still buffered (retrying while time is left), then closes the sender.
   * Resolves with the number of events that could not be delivered.
   */
  async close(timeoutMs = 10_000): Promise<number> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && (this.sending !== null || this.queue.length > 0)) {
      if (this.sending === null) this.flush();
      const attempt = this.sending;
      if (attempt === null) break;
      await settledWithin(attempt, deadline - Date.now());
      if (this.sending === null && this.failures > 0 && this.queue.length > 0) {
        await sleep(Math.min(this.backoff(), Math.max(0, deadline - Date.now())));
      }
    }
    const lost = this.depth;
    if (lost > 0) this.options.logger.warn({ lost }, 'request-log events not delivered to Kafka at shutdown');
    await this.options.sender.close().catch((error: unknown) => this.options.logger.debug({ err: error }, 'log sender close failed'));
    return lost;
  }

  private flush(): void {
    if (this.sending !== null || this.queue.length === 0) return;
    let count = 0;
    let bytes = 0;
    const limit = Math.min(this.batchSize, this.queue.length);
    while (count < limit && (count === 0 || bytes + this.queue[count]!.length <= this.batchBytes)) {
      bytes += this.queue[count]!.length;
      count++;
    }
    const batch = count === this.queue.length ? this.queue : this.queue.slice(0, count);
    this.queue = batch === this.queue ? [] : this.queue.slice(count);
    this.inFlight = batch.length;
    this.sending = this.options.sender.send(batch).then(
      () => this.settle(batch, null),
      (error: unknown) => this.settle(batch, error),
    );
  }

  private settle(batch: string[], error: unknown): void {
    this.inFlight = 0;
    this.sending = null;
    let delay = 0;
    if (error === null) {
      for (const event of batch) this.heldChars -= event.length;
      if (this.failures > 0) {
        this.options.logger.info(
          { outage_ms: Date.now() - this.failingSince, buffered: this.queue.length },
          'Kafka reachable again; sending buffered request-log events',
        );
      }
      this.failures = 0;
    } else {
      this.queue = batch.concat(this.queue);
      if (this.failures === 0) this.failingSince = Date.now();
      this.failures++;
      const now = Date.now();
      if (now - this.lastFailureWarn >= WARN_EVERY_MS) {
        this.lastFailureWarn = now;
        this.options.logger.warn(
          { err: error, buffered: this.queue.length, max: this.options.maxEvents },
          'Kafka unavailable; buffering request-log events',
        );
      }
      delay = this.backoff();
    }
    if (this.closed) return; // close() drives the remaining sends
    if (this.queue.length > 0) this.timer = setTimeout(this.sendNow, delay || (this.queue.length >= this.batchSize ? 0 : this.lingerMs));
  }

  private backoff(): number {
    return backoffMs(this.failures, { firstMs: this.retryMinMs, maxMs: this.retryMaxMs });
  }

  private drop(): void {
    this.droppedTotal++;
    this.droppedSinceWarn++;
    const now = Date.now();
    if (now - this.lastDropWarn >= WARN_EVERY_MS) {
      this.lastDropWarn = now;
      this.options.logger.warn(
        { dropped: this.droppedSinceWarn, dropped_total: this.droppedTotal, max: this.options.maxEvents },
        'request-log buffer full; dropping events (raise GATEWAY_LOG_BUFFER_MAX or restore Kafka)',
      );
      this.droppedSinceWarn = 0;
    }
  }
}


/** Waits for `promise` (which never rejects) or `ms`, whichever comes first, leaving no timer behind. */
function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
