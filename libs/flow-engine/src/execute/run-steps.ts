import { IterationLimitReached, RunInterrupted, RunMemoryExceeded, ValueTooLarge, BlockFailure, FunctionFailed, InvalidArgument } from '../runtime/run-errors';
import { DataPortError, EgressError, IntegrationError } from '../ports';
import type { FlowRun } from '../runtime/flow-run';
import type { CaughtError, FlowTracer } from '../runtime/flow-tracer';
import type { Step } from './prepare-flow';

/** A block failed (or the run stopped before or while it ran): the error and the block, for the executor's answer. */
export class StepFailed extends Error {
  constructor(
    readonly step: Step,
    readonly error: unknown,
    /** The tracer of the scope it failed in (which knows the iteration), or null. */
    readonly tracer: FlowTracer | null,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = 'StepFailed';
  }
}

/**
 * Runs blocks from `from` until a path ends, a Respond / Return Error sets the result, or the
 * scope's iteration is cancelled. Synchronous blocks run in a plain loop; the first block that
 * returns a promise (a port call, a loop waiting on one) or a used-up slice makes the rest
 * asynchronous. Throws (or rejects with) `StepFailed`. A failure of a block whose `error`
 * handle is connected goes on there instead, unless it is a budget (memory, iterations, size,
 * time), which nothing catches.
 */
export function runSteps(run: FlowRun, from: Step | null): void | Promise<void> {
  let step = from;
  const tracer = run.tracer;
  while (step !== null) {
    if (tracer !== null) tracer.blockStarted(step);
    let outcome: unknown;
    try {
      outcome = step.execute(run);
    } catch (error) {
      step = recover(run, step, error);
      continue;
    }
    if (outcome instanceof Promise) return continueAsync(run, step, outcome);
    if (tracer !== null) traceEnd(run, step, outcome);
    step = run.result === null ? advance(step, outcome) : null;
    if (step !== null && run.clockDue() && slice(run, step)) return continueAsync(run, step, null);
  }
}

/** Whether the slice is used up; the deadline or the CPU budget stops the run before `next`. */
function slice(run: FlowRun, next: Step): boolean {
  try {
    return run.sliceUsedUp();
  } catch (error) {
    throw new StepFailed(next, error, run.tracer);
  }
}

/**
 * Goes on from `from`: awaiting its pending outcome first when it has one, else after waiting
 * for the next slice. Time spent waiting (for a port or a slice) is not counted as CPU.
 */
async function continueAsync(run: FlowRun, from: Step, pending: Promise<unknown> | null): Promise<void> {
  const tracer = run.tracer;
  let step: Step | null = from;
  if (pending === null) {
    try {
      await run.budget.nextSlice();
    } catch (error) {
      throw new StepFailed(from, error, run.tracer);
    }
  }
  while (step !== null) {
    if (run.cancelled) return;
    let outcome: unknown;
    try {
      if (pending !== null) {
        const first = pending;
        pending = null;
        outcome = await settle(run, step, first);
      } else {
        if (tracer !== null) tracer.blockStarted(step);
        outcome = step.execute(run);
        if (outcome instanceof Promise) outcome = await settle(run, step, outcome);
      }
    } catch (error) {
      if (run.cancelled) return;
      step = recover(run, step, error);
      continue;
    }
    if (run.cancelled) return;
    if (tracer !== null) traceEnd(run, step, outcome);
    step = run.result === null ? advance(step, outcome) : null;
    if (step !== null && run.clockDue() && slice(run, step)) {
      try {
        await run.budget.nextSlice();
      } catch (error) {
        throw new StepFailed(step, error, run.tracer);
      }
    }
  }
}

/**
 * A port call's outcome, raced against the deadline; the run goes on as the answer arrives,
 * like a new request: in a first slice. A loop's own iterations manage their slices, so the
 * loop is simply awaited.
 */
async function settle(run: FlowRun, step: Step, pending: Promise<unknown>): Promise<unknown> {
  if (step.flow === 'loop') {
    const outcome = await pending;
    run.budget.resume();
    return outcome;
  }
  run.endSlice();
  try {
    return await run.interruptor().race(pending);
  } finally {
    run.budget.resume();
  }
}

const advance = (step: Step, outcome: unknown): Step | null => (step.flow === 'branch' && outcome !== true ? step.whenFalse : step.next);

/** The block to go on with after `step` failed: its `error` path when connected and the failure is the block's own. */
function recover(run: FlowRun, step: Step, error: unknown): Step {
  if (error instanceof StepFailed) throw error;
  if (step.onError === null || !isOwnFailure(error)) throw new StepFailed(step, error, run.tracer);
  const caught = caughtError(error);
  try {
    if (step.outputSlot >= 0) run.keep(step.outputSlot, null);
    if (step.errorSlot >= 0) run.keep(step.errorSlot, caught);
  } catch (budget) {
    throw new StepFailed(step, budget, run.tracer);
  }
  run.skipped = null;
  run.failure = null;
  run.tracer?.blockEnded(step, { stored: null, branch: null, skipped: null, caught });
  return step.onError;
}

/** Budgets are never caught: a loop or an error path is never a way around a limit. */
const isOwnFailure = (error: unknown): boolean =>
  !(
    error instanceof RunInterrupted ||
    error instanceof RunMemoryExceeded ||
    error instanceof IterationLimitReached ||
    error instanceof ValueTooLarge ||
    (error instanceof FunctionFailed && BUDGET_CODES.has(error.result.code))
  );

/** The answers of a called function that ran out of a budget it shares with its caller: not the Call Function block's own failure. */
const BUDGET_CODES: ReadonlySet<string> = new Set(['flow_timeout', 'flow_cpu_exceeded', 'unavailable', 'run_memory_exceeded', 'iteration_limit', 'value_too_large']);

/** `{REF.error}`: what failed, as `{message, code, status?}`. */
function caughtError(error: unknown): CaughtError {
  if (error instanceof FunctionFailed) return { message: error.result.message, code: error.result.code, status: error.result.status };
  if (error instanceof InvalidArgument) return { message: error.message, code: 'invalid_argument', status: 422 };
  if (error instanceof BlockFailure) return { message: error.message, code: error.code, ...(error.status === undefined ? {} : { status: error.status }) };
  if (error instanceof DataPortError || error instanceof EgressError) return { message: error.message, code: error.code };
  if (error instanceof IntegrationError) return { message: `${error.provider}: ${error.message}`, code: 'integration_error' };
  return { message: error instanceof Error ? error.message : String(error), code: 'failed' };
}

/** What the block stored: its variable, or the answer of a Respond / Return Error. */
function traceEnd(run: FlowRun, step: Step, outcome: unknown): void {
  const stored = run.skipped !== null ? run.shown : step.flow === 'end' ? run.result : step.outputSlot >= 0 ? run.vars[step.outputSlot] : undefined;
  const failed = run.failure ?? undefined;
  run.tracer?.blockEnded(step, { stored, branch: step.flow === 'branch' ? outcome === true : null, skipped: run.skipped, ...(failed ? { failed } : {}) });
  run.skipped = null;
  run.shown = undefined;
  run.failure = null;
}
