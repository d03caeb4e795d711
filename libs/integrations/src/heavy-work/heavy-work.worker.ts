/**
 * Runs in the heavy-work pool's threads (heavy-work-pool.ts): work whose cost grows with its
 * input — image filters at up to FLOWGATE_IMAGE_MAX_PIXELS, regular expressions on long texts —
 * so that it never runs on a gateway's event loop.
 */
import { runRegexTask, type RegexOutcome, type RegexTask } from '@flowgate/flow-engine';
import type { MessagePort } from 'node:worker_threads';
import Piscina from 'piscina';
import type { ImageFilterTask } from '../images/image-filter';

export type HeavyTask = ({ kind: 'regex'; regex: RegexTask } | { kind: 'image'; image: ImageFilterTask }) & {
  /** Told when the thread begins the task (the pool's deadline counts from then). */
  running?: MessagePort;
};
/** An image's PNG comes back as the bare bytes, so that Piscina can move them instead of copying. */
export type HeavyResult = { kind: 'regex'; outcome: RegexOutcome } | Uint8Array | { kind: 'image_error'; message: string };

export default async function runHeavyTask(task: HeavyTask): Promise<HeavyResult> {
  task.running?.postMessage(null);
  task.running?.close();
  if (task.kind === 'regex') return { kind: 'regex', outcome: runRegexTask(task.regex) };
  // The image codecs (jimp) load with the first image task: a thread that only matches patterns starts faster.
  const { filterImage } = require('../images/image-filter') as typeof import('../images/image-filter');
  const filtered = await filterImage(task.image);
  return filtered.ok ? (Piscina.move(filtered.png) as Uint8Array) : { kind: 'image_error', message: filtered.message };
}
