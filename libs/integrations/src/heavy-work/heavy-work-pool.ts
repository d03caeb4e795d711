import type { CodeOutcome, CodeTask, RegexOutcome, RegexTask } from '@flowgate/flow-engine';
import { TYPESCRIPT_HOOK } from '@flowgate/platform';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import Piscina from 'piscina';
import type { ImageFilterOutcome, ImageFilterTask } from '../images/image-filter';
import { FairTaskQueue } from './fair-task-queue';
import { movableBytes } from './movable-bytes';
import type { HeavyResult, HeavyTask } from './heavy-work.worker';

export interface HeavyWorkPoolOptions {
  /** Threads doing heavy work at once: how much of the machine it can take, whatever the load. */
  threads: number;
  /** Tasks of one project that may wait for a thread; beyond that its block fails at once with a clear message. */
  maxQueue: number;
  /** Longest a task may run on a thread (FLOW_WORKER_TASK_MS); then the thread is terminated and replaced. */
  taskMs: number;
  /** CODE_MEMORY_MB: the memory of Run Code's sandbox on each thread. */
  codeMemoryMb: number;
}

/** Every task names its project: the threads are shared between projects fairly (fair-task-queue.ts). */
export interface HeavyWorkPool {
  matchRegex(projectId: string, task: RegexTask, signal: AbortSignal): Promise<RegexOutcome>;
  filterImage(projectId: string, task: ImageFilterTask, signal: AbortSignal): Promise<ImageFilterOutcome>;
  runCode(projectId: string, task: CodeTask, signal: AbortSignal): Promise<CodeOutcome>;
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
 * expressions, Run Code that needs more than a millisecond). A task is stopped when its signal fires (the flow's deadline or a cancelled
 * request) or after `taskMs` on its thread: Piscina terminates the thread running it and
 * starts another. Which task gets a thread that comes free is decided per project
 * (fair-task-queue.ts), so Piscina's own queue stays empty.
 */
export function createHeavyWorkPool(options: HeavyWorkPoolOptions): HeavyWorkPool {
  // From TypeScript source (development, tests) the threads load the worker through the TypeScript hook.
  const compiled = __filename.endsWith('.js');
  const pool = new Piscina<HeavyTask, HeavyResult>({
    filename: path.join(__dirname, compiled ? 'heavy-work.worker.js' : 'heavy-work.worker.ts'),
    execArgv: compiled ? [] : ['-r', TYPESCRIPT_HOOK],
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: IDLE_MS,
    niceIncrement: NICE_INCREMENT,
  });
  const queue = new FairTaskQueue<{ task: HeavyTask; transfer?: ArrayBuffer }, HeavyResult>(
    { threads: options.threads, maxQueuePerProject: options.maxQueue, taskMs: options.taskMs },
    ({ task, transfer }, signal, running) => {
      // The thread says when it begins the task: the task's deadline does not count starting a thread.
      const { port1, port2 } = new MessageChannel();
      port1.once('message', running);
      port1.unref();
      const transferList = transfer ? [port2, transfer] : [port2];
      return pool.run({ ...task, running: port2 }, { signal, transferList }).finally(() => port1.close());
    },
  );
  return {
    matchRegex: async (projectId, regex, signal) => {
      const result = await queue.run(projectId, { task: { kind: 'regex', regex } }, signal);
      if (result instanceof Uint8Array || result.kind !== 'regex') throw new Error('heavy-work pool: unexpected answer to a regex task');
      return result.outcome;
    },
    filterImage: async (projectId, image, signal) => {
      const source = movableBytes(image.source);
      const result = await queue.run(projectId, { task: { kind: 'image', image: { ...image, source } }, transfer: source.buffer as ArrayBuffer }, signal);
      if (result instanceof Uint8Array) return { ok: true, png: result };
      if (result.kind === 'image_error') return { ok: false, message: result.message };
      throw new Error('heavy-work pool: unexpected answer to an image task');
    },
    runCode: async (projectId, code, signal) => {
      const result = await queue.run(projectId, { task: { kind: 'code', code, memoryMb: options.codeMemoryMb } }, signal);
      if (result instanceof Uint8Array || result.kind !== 'code') throw new Error('heavy-work pool: unexpected answer to a code task');
      return result.outcome;
    },
    close: () => pool.destroy(),
  };
}
