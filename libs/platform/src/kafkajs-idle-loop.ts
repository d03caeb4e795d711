/**
 * kafkajs 2.2.4 keeps every broker connection busy while it has nothing to do: its request
 * queue reschedules a check of pending requests with `setTimeout(…, throttledUntil − now)`,
 * a negative delay when nothing is throttled, so each connection runs a 1 ms timer loop
 * forever (tulios/kafkajs#1556, #1704; the fix of PR #1667 is not released). Measured on
 * log-ingest with no traffic: ~0.02–0.05 of a core, i.e. 7–17 µs per request at 3,000 req/s.
 *
 * `stopKafkajsIdleLoop()` replaces that method so that, with nothing pending and no throttle
 * in force, no check is scheduled: a request that cannot go out at once is queued by `push`,
 * which schedules the check itself, and an answered request checks the queue anyway. With a
 * request pending or a throttle in force, kafkajs' own method runs unchanged. Patched only
 * when the method still has the known shape (a later kafkajs is left alone).
 *
 * This file is its own entry point (`@flowgate/platform/kafkajs`): the gateway's request-log
 * worker thread loads it without the rest of the platform library. It also exports the patch of
 * kafkajs' produce encoding (kafkajs-produce-encoding.ts).
 */
export { crc32c, speedUpKafkajsProduce } from './kafkajs-produce-encoding';

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  scheduleCheckPendingRequests(this: RequestQueueInternals): void;
}

const PATCHED = Symbol.for('flowgate.kafkajs.idle-loop-stopped');

/** Applies the fix once per process; returns whether kafkajs' request queue is patched. */
export function stopKafkajsIdleLoop(): boolean {
  // Not part of kafkajs' typed API: its request queue is an internal module of the package.
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals & { [PATCHED]?: true } };
  const proto = RequestQueue.prototype;
  if (proto[PATCHED]) return true;
  const original = proto.scheduleCheckPendingRequests;
  if (typeof original !== 'function' || !original.toString().includes('this.throttledUntil - Date.now()')) return false;
  proto.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueueInternals) {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    original.call(this);
  };
  proto[PATCHED] = true;
  return true;
}
