/**
 * What the inline sandbox's caller (inline-code-sandbox.ts) and its thread (inline-code.worker.ts)
 * share: the thread's start data and the words of the shared control block.
 */
import type { CodeTask } from '@flowgate/flow-engine';
import type { MessagePort } from 'node:worker_threads';

export interface InlineWorkerData {
  /** Says once whether the sandbox loaded. */
  port: MessagePort;
  /** Int32 words: see the indexes below. */
  control: SharedArrayBuffer;
  request: SharedArrayBuffer;
  answer: SharedArrayBuffer;
  memoryMb: number;
}

/** The number of the last task written. */
export const REQUESTED = 0;
/** The number of the last task answered. */
export const ANSWERED = 1;
/** Bytes of the task's JSON. */
export const REQUEST_BYTES = 2;
/** Bytes of the outcome's JSON; -1 when it did not fit. */
export const ANSWER_BYTES = 3;
export const CONTROL_WORDS = 4;

export type InlineRequest = { task: CodeTask; budgetMs: number };
export type InlineStart = { ready: true } | { ready: false; message: string };
