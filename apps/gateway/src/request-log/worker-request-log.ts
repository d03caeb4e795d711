import { startWorkerBeside, type Logger } from '@flowgate/platform';
import type { Worker } from 'node:worker_threads';
import { type FromWorker, type KafkaWorkerData, type LogStats, type ToWorker } from './kafka-worker-protocol';
import { EVENT_CHARS_BUDGET } from './request-log-buffer';
import type { RequestLogSink } from './request-log-sink';

/** Events are handed to the worker within this long: they never live long enough to be promoted. */
const FORWARD_MS = 5;
const FORWARD_MAX = 256;
/** A worker that dies this soon after starting is not restarted before this much time passed. */
const RESTART_BACKOFF_MS = 5000;

/**
 * The HTTP thread's side of the request log: collects a few milliseconds of events and posts
 * them to the worker thread (kafka-worker.ts), which buffers, batches, retries and enforces the
 * bound. Depth and drops are reported back by the worker. A worker that dies (a bug, or its
 * heap limit) loses what it held; it is logged and started again with the next events.
 */
export class WorkerRequestLog implements RequestLogSink {
  private worker: Worker | null = null;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stats: LogStats = { depth: 0, dropped: 0 };
  private droppedHere = 0;
  private closing = false;
  private restartNotBefore = 0;
  private readonly forward = (): void => {
    this.timer = null;
    this.post();
  };

  constructor(
    private readonly data: KafkaWorkerData,
    private readonly logger: Logger,
  ) {}

  get depth(): number {
    return this.stats.depth + this.pending.length;
  }

  get dropped(): number {
    return this.stats.dropped + this.droppedHere;
  }

  pushSerialized(value: string): void {
    if (this.closing || this.pending.length >= this.data.maxEvents) {
      this.droppedHere++;
      return;
    }
    this.pending.push(value);
    if (this.pending.length >= FORWARD_MAX) this.post();
    else if (this.timer === null) this.timer = setTimeout(this.forward, FORWARD_MS);
  }

  async close(timeoutMs = 10_000): Promise<number> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.post();
    const worker = this.worker;
    if (!worker) return 0;
    const lost = await new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(this.depth), timeoutMs + 2000);
      worker.on('message', (message: FromWorker) => {
        if ('closed' in message) {
          clearTimeout(timer);
          resolve(message.closed);
        }
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve(this.depth);
      });
      worker.postMessage({ close: true, timeoutMs } satisfies ToWorker);
    });
    this.worker = null;
    await worker.terminate();
    return lost;
  }

  private post(): void {
    if (this.pending.length === 0) return;
    if (this.worker === null && Date.now() < this.restartNotBefore) {
      // Keep the events (bounded by pushSerialized) until a worker may start again.
      if (this.timer === null && !this.closing) this.timer = setTimeout(this.forward, this.restartNotBefore - Date.now());
      return;
    }
    const lines = this.pending.join('\n');
    this.pending = [];
    (this.worker ?? this.start()).postMessage({ lines } satisfies ToWorker);
  }

  private start(): Worker {
    const startedAt = Date.now();
    const worker = startWorkerBeside(__filename, 'kafka-worker', { workerData: this.data, resourceLimits: limits(this.data) });
    worker.on('message', (message: FromWorker) => {
      if ('stats' in message) this.stats = message.stats;
    });
    worker.on('error', (error) => this.logger.error({ err: error, lost: this.stats.depth }, 'request-log worker failed; events it held are lost'));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.droppedHere += this.stats.depth;
      this.stats = { depth: 0, dropped: this.stats.dropped };
      if (Date.now() - startedAt < RESTART_BACKOFF_MS) this.restartNotBefore = startedAt + RESTART_BACKOFF_MS;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * The worker's heap holds the buffer during a Kafka outage (at most EVENT_CHARS_BUDGET characters
 * an event on average, a byte each in V8's one-byte strings, two in two-byte ones) and little else;
 * a small young generation keeps its RSS down while it churns through batches.
 */
function limits(data: KafkaWorkerData): { maxYoungGenerationSizeMb: number; maxOldGenerationSizeMb: number } {
  return { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 + Math.ceil((data.maxEvents * EVENT_CHARS_BUDGET * 2) / 1_000_000) };
}
