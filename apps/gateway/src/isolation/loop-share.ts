import { performance } from 'node:perf_hooks';

/** Long enough to see who keeps the loop busy, short enough to react within a tenth of a second. */
const WINDOW_MS = 100;
/** The loop counts as contended when it was busy (anything: HTTP, flows, logs) this much of a window. */
const CONTENDED_UTILIZATION = 0.5;
/** Runs that finished at once took this much of a window: requests are being served beside long runs. */
const SERVING_MS = 2;

/**
 * Event-loop time that each project's flows took (a run finished at once with its answer, every
 * slice of a run that went on, a large body's parsing: flow-isolation.ts `charge`) over
 * windows of 100 ms. A project that took more than half of it, in a window where another
 * project was served too and the loop was busy more than half the time (its utilization, which
 * also counts the HTTP work flow time does not), is "hot" for the next window: its requests
 * then wait for a scheduled turn (at most half of the loop) before they run. A flood of cheap
 * requests from one project thus leaves the other projects at least half of the loop; a
 * project alone on a gateway is never held back.
 */
export class LoopShare {
  private readonly used = new Map<string, number>();
  private hot: ReadonlySet<string> = new Set();
  private windowStart = performance.now();
  /** Loop time of runs that finished at once (no scheduled turn) in this window. */
  private atOnceMs = 0;
  private serving = false;

  /** `busyShare`: how busy the loop was since the previous call (0–1); default its utilization. */
  constructor(private readonly busyShare: () => number = loopUtilization()) {}

  isHot(projectId: string): boolean {
    return this.hot.size > 0 && this.hot.has(projectId);
  }

  /**
   * Whether, in the last window, runs that finished at once (ordinary requests, not held back)
   * took 2 ms or more while the loop was contended: the gateway then gives long runs a third of
   * the loop instead of half (flow-isolation.ts), so that the requests of the other projects
   * keep at least half of what they had, the loop's own work (HTTP, the collector) included.
   */
  get servingRequests(): boolean {
    return this.serving;
  }

  /**
   * Records `ms` of loop time for the project; `now` is the clock reading that ended it.
   * `atOnce`: a run that finished as it arrived, without waiting for a scheduled turn.
   */
  record(projectId: string, ms: number, now: number, atOnce = false): void {
    this.used.set(projectId, (this.used.get(projectId) ?? 0) + ms);
    if (atOnce) this.atOnceMs += ms;
    if (now - this.windowStart >= WINDOW_MS) this.roll(now);
  }

  private roll(now: number): void {
    let total = 0;
    for (const ms of this.used.values()) total += ms;
    const hot = new Set<string>();
    const contended = this.busyShare() > CONTENDED_UTILIZATION && this.used.size > 1;
    if (contended) {
      for (const [projectId, ms] of this.used) if (ms > total / 2) hot.add(projectId);
    }
    this.hot = hot;
    this.serving = contended && this.atOnceMs >= SERVING_MS;
    this.atOnceMs = 0;
    this.used.clear();
    this.windowStart = now;
  }
}

/** The event loop's utilization since the previous call (all of its work, not only flows). */
function loopUtilization(): () => number {
  let since = performance.eventLoopUtilization();
  return () => {
    const share = performance.eventLoopUtilization(since).utilization;
    since = performance.eventLoopUtilization();
    return share;
  };
}
