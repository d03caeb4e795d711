import type { FlowRun } from './flow-run';
import { bytesOf } from './flow-run';
import type { FlowTracer, TracedBlock } from './flow-tracer';

/** Iterations of each loop a trace keeps in full; the rest are counted (`iterations_not_shown`). */
export const TRACED_ITERATIONS = 20;

/** What a For Each does with one list, prepared once. */
export interface LoopPlan {
  readonly loop: TracedBlock;
  readonly concurrency: number;
  readonly itemSlot: number;
  readonly indexSlot: number;
  /** Evaluated in the iteration's scope when it ends; null: the loop gives the number of iterations. */
  readonly collect: ((scope: FlowRun) => unknown) | null;
  readonly keepNulls: boolean;
  /** Runs the body in an iteration's scope (see `runSteps`). */
  readonly body: (scope: FlowRun) => void | Promise<void>;
}

/** What leaves the loop: the collected list in list order, or the number of iterations. */
export type LoopOutcome = unknown[] | number;

/**
 * Runs the body once per item, each iteration in its own scope; `concurrency` of them at once
 * when the body waits (on a port). Every iteration counts against the run's budget (iterations,
 * memory, time: the body's blocks read the clock and wait for slices as any block does). The
 * first Respond / Return Error of an iteration answers for the run and cancels the others; the
 * first failure fails the loop. Synchronous while every iteration is.
 */
export function runIterations(run: FlowRun, items: readonly unknown[], plan: LoopPlan): LoopOutcome | Promise<LoopOutcome> {
  const loop = new LoopRun(run, items, plan);
  for (let index = 0; index < items.length; index++) {
    // A body path does not read the clock after its last block: the loop does, between iterations.
    if (index > 0 && run.clockDue() && run.sliceUsedUp()) return loop.continueAsync(index, null);
    const scope = loop.start(index);
    const pending = plan.body(scope);
    if (pending instanceof Promise) return loop.continueAsync(index + 1, { index, scope, pending });
    if (loop.finish(scope, index)) return loop.outcome();
  }
  return loop.outcome();
}

class LoopRun {
  private readonly collected: unknown[] = [];
  /** Marks an index whose collect value was dropped (null) or not made yet. */
  private readonly kept: boolean[] = [];
  private collectedBytes = 0;
  private readonly cancel = new AbortController();

  constructor(
    private readonly run: FlowRun,
    private readonly items: readonly unknown[],
    private readonly plan: LoopPlan,
  ) {}

  /** A new iteration's scope, with the item and its index set. */
  start(index: number): FlowRun {
    this.run.budget.countIteration();
    const scope = this.run.iterationScope(this.cancel.signal, this.tracerFor(index));
    // The list is counted already (the run holds it); the item is one of its elements.
    scope.vars[this.plan.itemSlot] = this.items[index];
    scope.vars[this.plan.indexSlot] = index;
    return scope;
  }

  /** Collects what the iteration leaves and frees its scope; true when it answered the request. */
  finish(scope: FlowRun, index: number): boolean {
    if (scope.result !== null) {
      this.run.result = scope.result;
      scope.release();
      return true;
    }
    if (this.plan.collect !== null) {
      const value = this.plan.collect(scope) ?? null;
      if (value !== null || this.plan.keepNulls) {
        const bytes = bytesOf(value, this.run.limits.maxRunBytes);
        this.run.budget.hold(bytes);
        this.collectedBytes += bytes;
        this.collected[index] = value;
        this.kept[index] = true;
      }
    }
    scope.release();
    return false;
  }

  outcome(): LoopOutcome {
    this.cancel.abort();
    const count = this.items.length;
    const tracer = this.run.tracer;
    if (tracer !== null && count > TRACED_ITERATIONS && this.run.result === null) tracer.iterationsNotShown?.(this.plan.loop, count - TRACED_ITERATIONS);
    // The list is kept under the loop's name by the block: counted there, no longer here.
    this.run.budget.hold(-this.collectedBytes);
    this.collectedBytes = 0;
    if (this.plan.collect === null) return count;
    const list: unknown[] = [];
    for (let index = 0; index < count; index++) if (this.kept[index] === true) list.push(this.collected[index]);
    return list;
  }

  /** Goes on from iteration `next`, with one iteration under way (`first`) or none (the slice was used up). */
  async continueAsync(next: number, first: { index: number; scope: FlowRun; pending: Promise<void> } | null): Promise<LoopOutcome> {
    const active = new Map<number, Promise<number>>();
    const scopes = new Map<number, FlowRun>();
    const track = (index: number, scope: FlowRun, pending: Promise<void>) => {
      scopes.set(index, scope);
      const settled = pending.then(() => index);
      // Raced below; a failure while the loop waits for a slice must not count as unhandled meanwhile.
      settled.catch(() => undefined);
      active.set(index, settled);
    };
    if (first !== null) track(first.index, first.scope, first.pending);
    try {
      for (;;) {
        while (active.size < this.plan.concurrency && next < this.items.length) {
          await this.slice();
          const index = next++;
          const scope = this.start(index);
          const pending = this.plan.body(scope);
          if (pending instanceof Promise) track(index, scope, pending);
          else if (this.finish(scope, index)) return this.outcome();
        }
        if (active.size === 0) return this.outcome();
        this.run.endSlice();
        const index = await Promise.race(active.values());
        this.run.budget.resume();
        active.delete(index);
        const scope = scopes.get(index) as FlowRun;
        scopes.delete(index);
        if (this.finish(scope, index)) return this.outcome();
      }
    } finally {
      this.cancel.abort();
      // Cancelled iterations stop before their next block; whatever they still throw is moot.
      for (const pending of active.values()) pending.catch(() => undefined);
    }
  }

  /**
   * A slice to start the next iteration in: the open one while it lasts, else the run's next
   * turn. An iteration already waiting for a turn goes first (the run asks for one at a time).
   */
  private async slice(): Promise<void> {
    const budget = this.run.budget;
    if (!budget.inSlice) {
      if (budget.waitingForTurn > 0) await budget.nextSlice();
      else budget.resume();
    }
    if (budget.clockDue() && budget.sliceUsedUp()) await budget.nextSlice();
  }

  /** The first iterations are traced in full, each block marked with the loop and the index. */
  private tracerFor(index: number): FlowTracer | null {
    const tracer = this.run.tracer;
    if (tracer === null || index >= TRACED_ITERATIONS) return null;
    return iterationTracer(tracer, this.plan.loop.id, index);
  }
}

function iterationTracer(tracer: FlowTracer, loopId: string, iteration: number): FlowTracer {
  const mark = (block: TracedBlock): TracedBlock => ({ id: block.id, type: block.type, label: block.label, loop_id: block.loop_id ?? loopId, iteration: block.iteration ?? iteration });
  // The iteration's blocks run one after another: a console belongs to the one started last.
  let running: TracedBlock | undefined;
  return {
    blockStarted: (block) => {
      running = mark(block);
      tracer.blockStarted(running);
    },
    blockEnded: (block, outcome) => tracer.blockEnded(mark(block), outcome),
    blockFailed: (block, error) => tracer.blockFailed(mark(block), error),
    blockLogged: (lines, block) => tracer.blockLogged?.(lines, block === undefined ? running : mark(block)),
    ...(tracer.nested ? { nested: (block: TracedBlock) => tracer.nested!(mark(block)) } : {}),
    attempt: (block, attempt) => tracer.attempt?.(mark(block), attempt),
    iterationsNotShown: (block, count) => tracer.iterationsNotShown?.(mark(block), count),
  };
}
