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
/** A turn of the loop that took less than this served nothing else: nobody is waiting for it. */
const IDLE_TURN_MS = 0.05;

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
 * Round-robin over waiting runs, one slice per turn of the loop. Long runs get at most half of
 * a busy loop: a slice lasts as long as the loop spent on everything else since the previous
 * slice ended (between `MIN_SLICE_MS` and `maxSliceMs`), and after a slice that overran (one
 * block, or one large body to parse, cannot be cut) the next one waits until other requests
 * had as much time — or until a turn of the loop found nothing else to do. When nothing else
 * is going on, long runs get whole slices back to back.
 */
export class FairScheduler implements FlowScheduler {
  private readonly waiting: Waiter[] = [];
  private scheduled = false;
  private lastSliceEnd: number;
  /** How long the last granted slice really took, and when it was granted (null once it ended). */
  private lastSliceLength = 0;
  private grantedAt: number | null = null;
  /** When the previous turn of the loop checked the queue. */
  private lastCheck: number;
  private readonly defer: (next: () => void) => void;
  private readonly now: () => number;

  constructor(private readonly options: FairSchedulerOptions) {
    this.defer = options.defer ?? ((next) => setTimeout(next, 0));
    this.now = options.now ?? (() => performance.now());
    this.lastSliceEnd = this.now();
    this.lastCheck = this.lastSliceEnd;
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
    this.lastCheck = this.lastSliceEnd;
    this.grantedAt = null;
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
    if (this.waiting.length === 0) return;
    const now = this.now();
    const elsewhere = now - this.lastSliceEnd;
    const thisTurn = now - this.lastCheck;
    this.lastCheck = now;
    // A slice whose end was not reported (its run failed) ended before this turn all the same.
    this.grantedAt = null;
    if (elsewhere < this.lastSliceLength && thisTurn > IDLE_TURN_MS) {
      this.schedule();
      return;
    }
    const waiter = this.waiting.shift()!;
    this.grantedAt = now;
    waiter.grant(Math.min(this.options.maxSliceMs, Math.max(MIN_SLICE_MS, elsewhere)));
    // Scheduled from inside a deferred callback, the next turn comes after the loop polled again.
    this.schedule();
  };
}
