import { performance } from 'node:perf_hooks';

/** Long enough to see who keeps the loop busy, short enough to react within a tenth of a second. */
const WINDOW_MS = 100;
/** The loop counts as contended when it was busy (anything: HTTP, flows, logs) this much of a window. */
const CONTENDED_UTILIZATION = 0.5;
/**
 * A project is held back only for others whose flows took at least this share of the window's
 * flow time: one whose requests take next to none (a flood of bodies answered at a path that
 * takes none: its costs are the connections', spaced by `closeUnread`) is not competing for
 * the loop, and holding the quiet project back for it only made the quiet project wait for
 * turns with the loop half idle (the drill's `flood-chunked-get` lane: the other project's
 * flows took 1–2 % of each window).
 */
const RIVALS_SHARE = 0.05;
/** Runs that finished at once took this much of a window: requests are being served beside long runs. */
const SERVING_MS = 2;
/**
 * A project whose answers closed this many connections with their bodies unread in a window
 * (40 a second) while another project was served is held to one such answer per
 * `CLOSE_SPACING_MS` in the next.
 */
const CLOSES_TO_HOLD = 4;
/**
 * While held, a project's answers that close a connection with its body unread leave at most
 * one per 20 ms (50 a second), each waiting for the one before. What such a connection costs
 * is mostly outside the gateway's flows: its accept and close, the bytes the kernel takes
 * before the answer, and above all the sender's own CPU, which on a small machine is the other
 * projects' too (the drill's chunked flood: its client took a core at ~1,100 a second, ~0.15
 * of one at 50; perf/JOURNAL.md).
 */
export const CLOSE_SPACING_MS = 20;
/**
 * No answer is held longer: a client opening connections faster than they are let go gets its
 * answers at once past this wait, so held sockets stay bounded by what arrives in a second.
 */
const MAX_CLOSE_HOLD_MS = 1000;

/**
 * Event-loop time that each project's flows took (a run finished at once with its answer, every
 * slice of a run that went on, a large body's parsing: flow-isolation.ts `charge`) over
 * windows of 100 ms. A project that took more than half of it, in a window where other
 * projects' flows took `RIVALS_SHARE` of it or more and the loop was busy more than half the
 * time (its utilization, which also counts the HTTP work flow time does not), is "hot" for the
 * next window — unless its runs all finished at once while another's took turns: its requests
 * then wait for a scheduled turn, and what each costs the loop (run, answer, log) is owed to the
 * rest of it (flow-isolation.ts). A flood of cheap requests from one project thus leaves the
 * other projects at least half of the loop; a project alone on a gateway is never held back.
 */
export class LoopShare {
  private readonly used = new Map<string, number>();
  /** Projects with loop time in this window that was not a run finished at once (slices, turns, large bodies, answers). */
  private readonly tookTurns = new Set<string>();
  private hot: ReadonlySet<string> = new Set();
  private windowStart = performance.now();
  /** Loop time of runs that finished at once (no scheduled turn) in this window. */
  private atOnceMs = 0;
  private serving = false;
  /** Connections each project's answers closed with the body unread, this window. */
  private readonly closes = new Map<string, number>();
  /** Projects held to `CLOSE_SPACING_MS` for such answers, and when each may send its next. */
  private closing = new Map<string, number>();

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
    else this.tookTurns.add(projectId);
    if (now - this.windowStart >= WINDOW_MS) this.roll(now);
  }

  /**
   * An answer of the project is about to close its connection with the request's body unread
   * (a refusal at the headers, a body sent to a path that takes none): how many ms it waits
   * first. A project that did this `CLOSES_TO_HOLD` times or more in a window where another
   * project was served too has these answers spaced `CLOSE_SPACING_MS` apart in the next: a
   * client that sends bodies only to be refused gets its answers (and sends its next request)
   * at that pace, however many connections it opens, where each one otherwise came back at once.
   */
  closeUnread(projectId: string, now: number): number {
    this.closes.set(projectId, (this.closes.get(projectId) ?? 0) + 1);
    if (now - this.windowStart >= WINDOW_MS) this.roll(now);
    const next = this.closing.size === 0 ? undefined : this.closing.get(projectId);
    if (next === undefined) return 0;
    const at = Math.max(now, next);
    if (at - now > MAX_CLOSE_HOLD_MS) return 0;
    this.closing.set(projectId, at + CLOSE_SPACING_MS);
    return at - now;
  }

  private roll(now: number): void {
    let total = 0;
    for (const ms of this.used.values()) total += ms;
    const hot = new Set<string>();
    // Contended only between projects whose flows took loop time: a project whose requests
    // were all refused took none, and must not make the one it floods beside look hot.
    const contended = this.busyShare() > CONTENDED_UTILIZATION && this.used.size > 1;
    // Runs that all finished at once, beside another project's runs that took turns (long runs,
    // or runs held back): the other project is already held to its share by the scheduler, and
    // holding these back too would queue cheap runs behind what its slices owe — one run a turn,
    // each after a wait (a quiet project kept 11 % of its throughput beside every abuse at once).
    const onlyAtOnceBesideTurns = (projectId: string): boolean => !this.tookTurns.has(projectId) && this.tookTurns.size > 0;
    if (contended) {
      for (const [projectId, ms] of this.used) if (ms > total / 2 && total - ms >= total * RIVALS_SHARE && !onlyAtOnceBesideTurns(projectId)) hot.add(projectId);
    }
    this.hot = hot;
    this.serving = contended && this.atOnceMs >= SERVING_MS;
    this.atOnceMs = 0;
    // Not only on a busy loop: what such connections cost is mostly outside it (the sender's
    // own CPU, the kernel's copies), which on a small machine is the other projects' too.
    let served = this.used.size;
    for (const projectId of this.closes.keys()) if (!this.used.has(projectId)) served++;
    const closing = new Map<string, number>();
    if (served > 1) {
      for (const [projectId, count] of this.closes) if (count >= CLOSES_TO_HOLD) closing.set(projectId, this.closing.get(projectId) ?? now);
    }
    this.closing = closing;
    this.closes.clear();
    this.used.clear();
    this.tookTurns.clear();
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
