import { IntegrationError, type RegexPort } from '@flowgate/flow-engine';
import path from 'node:path';
import Piscina from 'piscina';
import type { ImageFilterOutcome, ImageFilterTask } from '../images/image-filter';
import type { HeavyResult, HeavyTask } from './heavy-work.worker';

export interface HeavyWorkPoolOptions {
  /** Threads doing heavy work at once: how much of the machine it can take, whatever the load. */
  threads: number;
  /** Tasks that may wait for a thread; beyond that a block fails at once with a clear message. */
  maxQueue: number;
}

export interface HeavyWorkPool {
  regex: RegexPort;
  filterImage(task: ImageFilterTask, signal: AbortSignal): Promise<ImageFilterOutcome>;
  close(): Promise<void>;
}

/**
 * Below normal priority (nice +10, per thread on Linux): where the pool and the event loop
 * compete for a core, the loop serving requests wins and heavy work takes what is left.
 */
const NICE_INCREMENT = 10;
/** Idle threads exit after this long, and are started again on the next task. */
const IDLE_MS = 30_000;

/**
 * Worker threads for work that grows with its input (image filters, long regular
 * expressions). A task is stopped when its signal fires (the flow's deadline or a cancelled
 * request): Piscina terminates the thread running it and starts another.
 */
export function createHeavyWorkPool(options: HeavyWorkPoolOptions): HeavyWorkPool {
  // From TypeScript source (development, tests) the threads load the worker through the SWC hook.
  const compiled = __filename.endsWith('.js');
  const pool = new Piscina<HeavyTask, HeavyResult>({
    filename: path.join(__dirname, compiled ? 'heavy-work.worker.js' : 'heavy-work.worker.ts'),
    execArgv: compiled ? [] : ['-r', '@swc-node/register'],
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: IDLE_MS,
    niceIncrement: NICE_INCREMENT,
  });
  const run = (task: HeavyTask, signal: AbortSignal, transfer?: ArrayBuffer): Promise<HeavyResult> => {
    if (pool.queueSize >= options.maxQueue) {
      return Promise.reject(new IntegrationError('gateway', `every worker thread is busy (${options.maxQueue} tasks waiting); try again shortly`));
    }
    return pool.run(task, { signal, transferList: transfer ? [transfer] : undefined });
  };
  return {
    regex: {
      match: async (regex, signal) => {
        const result = await run({ kind: 'regex', regex }, signal);
        if (result instanceof Uint8Array || result.kind !== 'regex') throw new Error('heavy-work pool: unexpected answer to a regex task');
        return result.outcome;
      },
    },
    filterImage: async (image, signal) => {
      const source = ownBytes(image.source);
      const result = await run({ kind: 'image', image: { ...image, source } }, signal, source.buffer as ArrayBuffer);
      if (result instanceof Uint8Array) return { ok: true, png: result };
      if (result.kind === 'image_error') return { ok: false, message: result.message };
      throw new Error('heavy-work pool: unexpected answer to an image task');
    },
    close: () => pool.destroy(),
  };
}

/**
 * Bytes that can be moved to another thread: a small Buffer shares Node's pool with others,
 * and moving that would take it from them, so such bytes are copied first.
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}
