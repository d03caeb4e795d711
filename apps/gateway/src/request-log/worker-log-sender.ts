import type { Logger } from '@flowgate/platform';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { encodeBatch, type FromWorker, type KafkaWorkerData, type ToWorker } from './kafka-worker-protocol';
import type { LogBatchSender, LogMessage } from './log-batch-sender';

interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Hands batches to the Kafka worker thread and resolves when Kafka acknowledged them. A dead
 * worker fails its pending batches (the buffer retries them) and is started again on the
 * next batch.
 */
export class WorkerLogSender implements LogBatchSender {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly data: KafkaWorkerData,
    private readonly logger: Logger,
  ) {}

  send(messages: LogMessage[]): Promise<void> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, lines: encodeBatch(messages) } satisfies ToWorker);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      worker.on('message', (message: FromWorker) => {
        if ('closed' in message) {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.postMessage({ close: true } satisfies ToWorker);
    });
    await worker.terminate();
  }

  private start(): Worker {
    const worker = spawnWorker(this.data);
    worker.on('message', (message: FromWorker) => {
      if (!('id' in message)) return;
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error === undefined) pending.resolve();
      else pending.reject(new Error(message.error));
    });
    worker.on('error', (error) => this.logger.error({ err: error }, 'Kafka worker failed'));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(new Error('Kafka worker stopped'));
      }
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * A small young generation: the worker allocates fast but holds little, and the default
 * semi-spaces would add tens of MB of RSS for nothing.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 };

/** Runs the compiled worker next to this file, or the TypeScript source through the SWC hook. */
function spawnWorker(data: KafkaWorkerData): Worker {
  const options = { workerData: data, resourceLimits: WORKER_LIMITS };
  if (__filename.endsWith('.js')) return new Worker(path.join(__dirname, 'kafka-worker.js'), options);
  const source = path.join(__dirname, 'kafka-worker.ts');
  return new Worker(`require('@swc-node/register'); require(${JSON.stringify(source)});`, { ...options, eval: true });
}
