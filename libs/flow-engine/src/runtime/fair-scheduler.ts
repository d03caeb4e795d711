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
  /** The run's slice ended now (it waits again, or it finished); `usedMs`: the loop time it took. */
  sliceEnded(usedMs?: number): void;
}

/** A slice is never shorter: the loop's own overhead per turn (~20 µs) stays a few percent. */
export const MIN_SLICE_MS = 1;

interface Waiter {
  grant(sliceMs: number): void;
}

/** The runs of one tenant waiting for a slice, first come first served. */
interface Line {
  waiters: Waiter[];
  /** When it was last granted a slice (a count of grants): ties go to the line served longest ago. */
  servedAt: number;
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
  /**
   * What a tenant (a project) consumed of the loop lately: the next slice goes to the waiting
   * tenant that consumed the least (ties to the one served longest ago). Default: none, so
   * tenants take turns.
   */
  costOf?: (tenant: string) => number;
  /**
   * How many times a slice's length the rest of the loop is owed after it, read as the slice
   * ends: 1 (the default) gives long runs at most half of the loop, 2 a third. The gateway asks
   * for 2 while requests that finish at once are being served (flow-isolation.ts).
   */
  restShare?: () => number;
}

/**
 * One slice per turn of the loop, to the waiting tenant (`turn`'s second argument) that
 * consumed the least loop time (`costOf`: a quiet project's slice never waits behind a noisy
 * project's line), first come first served within a tenant; and long runs get at most half of
 * the loop: after a slice of L ms (one block, or one large body to parse, cannot be
 * cut, so a slice can overrun) the next one starts no sooner than L ms after it ended (R·L
 * with `restShare` R). The loop serves whatever else arrives meanwhile, or waits for it; a
 * long run alone on a gateway therefore takes up to twice its CPU time in wall time — the price
 * of never starving the others. Each slice lasts as long as the loop spent elsewhere since the previous one, between
 * `MIN_SLICE_MS` and `maxSliceMs`.
 */
export class FairScheduler implements FlowScheduler {
  private readonly lines = new Map<string, Line>();
  private waitingCount = 0;
  private grants = 0;
  private scheduled = false;
  private lastSliceEnd: number;
  /** How long the last granted slice really took, and when it was granted (null once it ended). */
  private lastSliceLength = 0;
  /**
   * Dues under `MIN_SLICE_MS` (short slices, small work owed), summed until they reach it: then
   * owed as one. A held-back project's cheap runs thus keep to their share of the loop too,
   * while the next turn becomes a timer only once a millisecond or more is owed.
   */
  private smallDues = 0;
  private grantedAt: number | null = null;
  /** When a granted slice of `MIN_SLICE_MS` or more last ended. */
  private lastLongSliceEnd = -Infinity;
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
    return this.waitingCount;
  }

  /** `tenant`: whose line the run waits in (a project); runs without one share a line. */
  turn(signal: AbortSignal, tenant = ''): Promise<number> {
    return new Promise<number>((resolve) => {
      const onAbort = (): void => this.leave(tenant, waiter);
      const waiter: Waiter = {
        grant: (sliceMs) => {
          signal.removeEventListener('abort', onAbort);
          resolve(sliceMs);
        },
      };
      let line = this.lines.get(tenant);
      // A line that (re)starts waits behind the lines waiting longer, as if served just before the last grant.
      if (line === undefined) this.lines.set(tenant, (line = { waiters: [], servedAt: this.grants - 0.5 }));
      line.waiters.push(waiter);
      this.waitingCount++;
      signal.addEventListener('abort', onAbort, { once: true });
      this.schedule();
    });
  }

  sliceEnded(): void {
    // Only a granted slice counts; runs going on as requests or answers arrive are the loop's other work.
    if (this.grantedAt === null) return;
    this.lastSliceEnd = this.now();
    // A slice shorter than MIN_SLICE_MS (a held-back project's cheap run) owes nothing by itself:
    // the loop's next turn is wait enough, where owing microseconds would make it a 1 ms timer.
    // Its due is kept, and owed once such dues add up to a millisecond.
    const length = this.lastSliceEnd - this.grantedAt;
    this.grantedAt = null;
    if (length >= MIN_SLICE_MS) {
      this.lastSliceLength = length * this.restShare();
      this.lastLongSliceEnd = this.lastSliceEnd;
    } else this.lastSliceLength = this.due(length);
  }

  /** `ms × restShare` when that reaches `MIN_SLICE_MS` with the small dues kept before (then cleared), else 0 (kept). */
  private due(ms: number): number {
    this.smallDues += ms * this.restShare();
    if (this.smallDues < MIN_SLICE_MS) return 0;
    const due = this.smallDues;
    this.smallDues = 0;
    return due;
  }

  /**
   * Work of a scheduled run done outside its slices (its answer, written after the run ended):
   * the rest of the loop is owed it too (times `restShare`), from now, on top of what it was
   * still owed. Less than `MIN_SLICE_MS` is kept until such dues add up to it: owed at once, it
   * would only turn the next turn into a timer; never owed, a flood of cheap held-back requests
   * would take the loop their answers and logs cost.
   */
  owe(ms: number): void {
    const due = ms < MIN_SLICE_MS ? this.due(ms) : ms * this.restShare();
    if (due === 0) return;
    const now = this.now();
    this.lastSliceLength = Math.max(0, this.owed(now)) + due;
    this.lastSliceEnd = now;
  }

  private restShare(): number {
    return this.options.restShare?.() ?? 1;
  }

  /**
   * Whether long runs took turns lately: a slice of `MIN_SLICE_MS` or more ended less than
   * `withinMs` ago (the loop's own pauses then are theirs to pay for: flow-isolation.ts, the
   * collector). Runs that take a turn for a few microseconds (a project held back for a flood
   * of cheap requests) are not long runs.
   */
  longRunsTakingTurns(withinMs: number): boolean {
    return this.now() - this.lastLongSliceEnd < withinMs;
  }

  private leave(tenant: string, waiter: Waiter): void {
    const line = this.lines.get(tenant);
    const index = line === undefined ? -1 : line.waiters.indexOf(waiter);
    if (index === -1) return;
    line!.waiters.splice(index, 1);
    this.waitingCount--;
    if (line!.waiters.length === 0) this.lines.delete(tenant);
  }

  /** The next waiter: of the tenant that consumed the least, ties to the line served longest ago. */
  private take(): Waiter {
    let chosen: [string, Line] | null = null;
    let least = Infinity;
    for (const entry of this.lines) {
      const cost = this.options.costOf?.(entry[0]) ?? 0;
      if (cost < least || (cost === least && entry[1].servedAt < chosen![1].servedAt)) [chosen, least] = [entry, cost];
    }
    const [tenant, line] = chosen!;
    line.servedAt = ++this.grants;
    this.waitingCount--;
    const waiter = line.waiters.shift()!;
    if (line.waiters.length === 0) this.lines.delete(tenant);
    return waiter;
  }

  /** Time the rest of the loop is still owed after the last slice. */
  private owed(now: number): number {
    return this.lastSliceLength - (now - this.lastSliceEnd);
  }

  private schedule(): void {
    if (this.scheduled || this.waitingCount === 0) return;
    this.scheduled = true;
    const owed = this.owed(this.now());
    if (owed > 0) this.delay(this.next, owed);
    else this.defer(this.next);
  }

  private readonly next = (): void => {
    this.scheduled = false;
    // A slice whose end was not reported (its run failed) ended before this turn all the same.
    this.grantedAt = null;
    if (this.waitingCount === 0) return;
    const now = this.now();
    if (this.owed(now) > 0) return this.schedule();
    const waiter = this.take();
    this.grantedAt = now;
    waiter.grant(Math.min(this.options.maxSliceMs, Math.max(MIN_SLICE_MS, now - this.lastSliceEnd)));
    // Deferred from inside a turn, the next check comes after the loop polled again (and the slice ended).
    this.schedule();
  };
}
