/**
 * Runs in the heavy-work pool's threads (heavy-work-pool.ts): work whose cost grows with its
 * input — image filters at up to FLOWGATE_IMAGE_MAX_PIXELS, regular expressions on long texts —
 * so that it never runs on a gateway's event loop.
 */
import { runRegexTask, type CodeOutcome, type CodeTask, type RegexOutcome, type RegexTask } from '@flowgate/flow-engine';
import type { MessagePort } from 'node:worker_threads';
import Piscina from 'piscina';
import type { CodeSandbox } from '../code-sandbox/quickjs-sandbox';
import type { ImageFilterTask } from '../images/image-filter';
import { movableBytes } from './movable-bytes';

export type HeavyTask = ({ kind: 'regex'; regex: RegexTask } | { kind: 'image'; image: ImageFilterTask } | { kind: 'code'; code: CodeTask; memoryMb: number }) & {
  /** Told when the thread begins the task (the pool's deadline counts from then). */
  running?: MessagePort;
};
/** An image's PNG comes back as the bare bytes, so that Piscina can move them instead of copying. */
export type HeavyResult = { kind: 'regex'; outcome: RegexOutcome } | { kind: 'code'; outcome: CodeOutcome } | Uint8Array | { kind: 'image_error'; message: string };

export default async function runHeavyTask(task: HeavyTask): Promise<HeavyResult> {
  task.running?.postMessage(null);
  task.running?.close();
  if (task.kind === 'regex') return { kind: 'regex', outcome: runRegexTask(task.regex) };
  if (task.kind === 'code') return { kind: 'code', outcome: await runCodeTask(task.code, task.memoryMb) };
  // The image codecs (jimp) load with the first image task: a thread that only matches patterns starts faster.
  const { filterImage } = require('../images/image-filter') as typeof import('../images/image-filter');
  const filtered = await filterImage(task.image);
  return filtered.ok ? (Piscina.move(movableBytes(filtered.png)) as Uint8Array) : { kind: 'image_error', message: filtered.message };
}

let sandbox: Promise<CodeSandbox> | null = null;

/** Run Code on this thread: one sandbox module per thread, loaded with its first task and replaced if a run broke it. */
async function runCodeTask(task: CodeTask, memoryMb: number): Promise<CodeOutcome> {
  const { CodeSandbox } = require('../code-sandbox/quickjs-sandbox') as typeof import('../code-sandbox/quickjs-sandbox');
  const ready = await (sandbox ??= CodeSandbox.load({ memoryMb }));
  const outcome = ready.run(task);
  if (ready.broken) sandbox = null;
  return outcome;
}
