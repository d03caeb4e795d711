// The one way tests wait for something that happens asynchronously (a row stored, a gateway
// serving, a broker up). Waiting is bounded by a deadline that only turns a hang into a clear
// failure: no test asserts how long anything took. (To pause, `setTimeout` of node:timers/promises.)

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns a value other than undefined/false and returns that value;
 * a probe that throws is tried again. Fails after `timeoutMs` naming `what` and the last answer.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 15_000, intervalMs = 10): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
    await sleep(intervalMs);
  }
}

export interface UntilOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until `done` accepts its value and returns that value; a probe that throws fails
 * the wait at once. Fails after `timeoutMs` naming `what` and the last value. The arguments come
 * in `waitFor`'s order: what to ask, (when it is done), what it is called.
 */
export async function waitUntil<T>(probe: () => T | Promise<T>, done: (value: T) => boolean, what: string, { timeoutMs = 30_000, intervalMs = 100 }: UntilOptions = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await sleep(intervalMs);
  }
}
