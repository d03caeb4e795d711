import type { FairScheduler } from '@flowgate/flow-engine';

/** Above this a body is "large" (a 64 KiB JSON body parses in well under a millisecond). */
export const LARGE_BODY_BYTES = 64 * 1024;
/**
 * Large bodies of one project parsed and in flight at once. A parsed 1 MiB body can be tens of
 * thousands of objects, and garbage collection marks every one: this bounds the heap one
 * project's large requests hold, and so the collector's pauses, whatever their number.
 */
const IN_FLIGHT_PER_PROJECT = 2;
const NEVER_ABORTED = new AbortController().signal;

interface Slots {
  inFlight: number;
  waiting: Array<() => void>;
}

/**
 * Requests with large bodies: at most a few per project between parsing and answer (the rest
 * wait as raw bytes), and parsing — which cannot be cut — done in scheduled turns, like the
 * slices of long flows, so that many arriving together cannot add up to a long stall.
 */
export class LargeBodies {
  private readonly projects = new Map<string, Slots>();

  constructor(private readonly scheduler: FairScheduler) {}

  /** Resolves once the project has a free slot; call the returned function when the request is answered. */
  async admit(projectId: string): Promise<() => void> {
    let slots = this.projects.get(projectId);
    if (slots === undefined) this.projects.set(projectId, (slots = { inFlight: 0, waiting: [] }));
    if (slots.inFlight < IN_FLIGHT_PER_PROJECT) slots.inFlight++;
    else await new Promise<void>((resolve) => slots.waiting.push(resolve));
    return () => this.release(projectId, slots);
  }

  /** Waits for a scheduled turn in the project's line; end it with `endTurn` once the synchronous work is done. */
  turn(projectId: string): Promise<number> {
    return this.scheduler.turn(NEVER_ABORTED, projectId);
  }

  endTurn(): void {
    this.scheduler.sliceEnded();
  }

  private release(projectId: string, slots: Slots): void {
    const next = slots.waiting.shift();
    if (next !== undefined) return next(); // the slot passes to the next in line
    if (--slots.inFlight === 0) this.projects.delete(projectId);
  }
}
