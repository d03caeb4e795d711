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
  now?: () => number;
}

/**
 * Round-robin over waiting runs, one slice per turn of the loop. A slice lasts as long as the
 * loop spent on everything else since the previous slice ended (between `MIN_SLICE_MS` and
 * `maxSliceMs`): when other requests keep the loop busy, long runs get about half of it and
 * those requests the other half; when nothing else is going on, long runs get whole slices.
 */
export class FairScheduler implements FlowScheduler {
  private readonly waiting: Waiter[] = [];
  private scheduled = false;
  private lastSliceEnd: number;
  private readonly defer: (next: () => void) => void;
  private readonly now: () => number;

  constructor(private readonly options: FairSchedulerOptions) {
    this.defer = options.defer ?? ((next) => setTimeout(next, 0));
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
    this.lastSliceEnd = this.now();
  }

  private leave(waiter: Waiter): void {
    const index = this.waiting.indexOf(waiter);
    if (index !== -1) this.waiting.splice(index, 1);
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    this.defer(this.next);
  }

  private readonly next = (): void => {
    this.scheduled = false;
    const waiter = this.waiting.shift();
    if (waiter === undefined) return;
    const elsewhere = this.now() - this.lastSliceEnd;
    waiter.grant(Math.min(this.options.maxSliceMs, Math.max(MIN_SLICE_MS, elsewhere)));
    // Scheduled from inside a deferred callback, the next turn comes after the loop polled again.
    this.schedule();
  };
}
