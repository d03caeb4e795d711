/**
 * Hands the event loop to long runs one slice at a time, so that a flow doing a lot of work
 * cannot starve requests of other projects. A run that used up its slice waits in one queue
 * shared by every run of the process; each turn of the event loop gives the first in line one
 * slice, then lets the loop read sockets and serve new requests before the next.
 */
export interface FlowScheduler {
  /**
   * Resolves, when it is this run's turn, with the length of its slice in ms. A run whose
   * signal fires leaves the queue (the caller races the signal itself).
   */
  turn(signal: AbortSignal): Promise<number>;
  /** The run's slice ended now (it waits again, or it finished). */
  sliceEnded(): void;
}

/** A slice is never shorter: the loop's own overhead per turn (~20 µs) stays a few percent. */
export const MIN_SLICE_MS = 1;

interface Waiter {
  grant(sliceMs: number): void;
}

export interface FairSchedulerOptions {
  /** Longest slice. */
  maxSliceMs: number;
  /**
   * Runs `next` after pending I/O has been handled (the gateway passes `setImmediate`, which
   * runs after the loop polled its sockets). Default `setTimeout(next, 0)`.
   */
  defer?: (next: () => void) => void;
  /** Runs `next` in `ms`; default `setTimeout`. */
  delay?: (next: () => void, ms: number) => void;
  now?: () => number;
}

/**
 * Round-robin over waiting runs, one slice per turn of the loop, and long runs get at most
 * half of the loop: after a slice of L ms (one block, or one large body to parse, cannot be
 * cut, so a slice can overrun) the next one starts no sooner than L ms after it ended. The
 * loop serves whatever else arrives meanwhile, or waits for it; a long run alone on a gateway
 * therefore takes up to twice its CPU time in wall time — the price of never starving the
 * others. Each slice lasts as long as the loop spent elsewhere since the previous one, between
 * `MIN_SLICE_MS` and `maxSliceMs`.
 */
export class FairScheduler implements FlowScheduler {
  private readonly waiting: Waiter[] = [];
  private scheduled = false;
  private lastSliceEnd: number;
  /** How long the last granted slice really took, and when it was granted (null once it ended). */
  private lastSliceLength = 0;
  private grantedAt: number | null = null;
  private readonly defer: (next: () => void) => void;
  private readonly delay: (next: () => void, ms: number) => void;
  private readonly now: () => number;

  constructor(private readonly options: FairSchedulerOptions) {
    this.defer = options.defer ?? ((next) => setTimeout(next, 0));
    this.delay = options.delay ?? ((next, ms) => setTimeout(next, ms));
    this.now = options.now ?? (() => performance.now());
    this.lastSliceEnd = this.now();
  }

  /** Runs waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  turn(signal: AbortSignal): Promise<number> {
    return new Promise<number>((resolve) => {
      const onAbort = (): void => this.leave(waiter);
      const waiter: Waiter = {
        grant: (sliceMs) => {
          signal.removeEventListener('abort', onAbort);
          resolve(sliceMs);
        },
      };
      this.waiting.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      this.schedule();
    });
  }

  sliceEnded(): void {
    // Only a granted slice counts; runs going on as requests or answers arrive are the loop's other work.
    if (this.grantedAt === null) return;
    this.lastSliceEnd = this.now();
    this.lastSliceLength = this.lastSliceEnd - this.grantedAt;
    this.grantedAt = null;
  }

  private leave(waiter: Waiter): void {
    const index = this.waiting.indexOf(waiter);
    if (index !== -1) this.waiting.splice(index, 1);
  }

  /** Time the rest of the loop is still owed after the last slice. */
  private owed(now: number): number {
    return this.lastSliceLength - (now - this.lastSliceEnd);
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    const owed = this.owed(this.now());
    if (owed > 0) this.delay(this.next, owed);
    else this.defer(this.next);
  }

  private readonly next = (): void => {
    this.scheduled = false;
    // A slice whose end was not reported (its run failed) ended before this turn all the same.
    this.grantedAt = null;
    if (this.waiting.length === 0) return;
    const now = this.now();
    if (this.owed(now) > 0) return this.schedule();
    const waiter = this.waiting.shift()!;
    this.grantedAt = now;
    waiter.grant(Math.min(this.options.maxSliceMs, Math.max(MIN_SLICE_MS, now - this.lastSliceEnd)));
    // Deferred from inside a turn, the next check comes after the loop polled again (and the slice ended).
    this.schedule();
  };
}
