import { DataPortError, type FlowPorts } from '../ports';
import { FairScheduler, type FlowScheduler } from '../runtime/fair-scheduler';
import { DEFAULT_FLOW_LIMITS } from '../runtime/flow-limits';
import { BlockFailure, RunInterrupted, RunMemoryExceeded, ValueTooLarge } from '../runtime/run-errors';
import type { ExecuteOptions, FlowRequest, FlowResult } from '../runtime/flow-io';
import { FIRST_SLICE_MS, type FlowRun } from '../runtime/flow-run';
import type { FlowTracer } from '../runtime/flow-tracer';
import type { PreparedFlow, Step } from './prepare-flow';


/**
 * Runs a prepared flow. Never rejects: every failure becomes an error result. Blocks run in a
 * plain loop; a flow goes asynchronous only when a block returns a promise (a port call) or
 * when it has used up its slice of the event loop (see `runFlow`).
 */
export function executeFlow(flow: PreparedFlow, request: FlowRequest, ports: FlowPorts, options: ExecuteOptions = {}): Promise<FlowResult> {
  const result = runFlow(flow, request, ports, options);
  return result instanceof Promise ? result : Promise.resolve(result);
}

/**
 * `executeFlow` without the promise when the flow finished synchronously: the result itself,
 * so that a server can answer within the same call. A promise (which never rejects) otherwise.
 *
 * The clock is read after every few blocks, or sooner after blocks that handled much text (see
 * `FlowRun.clockDue`). A run that has held the event loop for its first slice goes on in
 * slices handed out by the scheduler, after other requests had their turn; every reading also
 * checks the deadline and the CPU budget.
 */
export function runFlow(flow: PreparedFlow, request: FlowRequest, ports: FlowPorts, options: ExecuteOptions = {}): FlowResult | Promise<FlowResult> {
  let step: Step | null = null;
  let run: FlowRun | null = null;
  const tracer = options.tracer ?? null;
  try {
    if (options.signal?.aborted) return interrupted(new RunInterrupted('cancelled'), null);
    run = flow.startRun(request, ports, {
      limits: options.limits ?? DEFAULT_FLOW_LIMITS,
      scheduler: options.scheduler ?? defaultScheduler(),
      deadlineAt: deadlineAt(options),
      signal: options.signal,
      memory: options.memory,
    });
    step = flow.entry;
    while (step !== null) {
      if (tracer !== null) tracer.blockStarted(step);
      const outcome = step.execute(run);
      if (outcome instanceof Promise) {
        const going = run;
        run = null; // continueAsync ends it
        return continueAsync(going, step, outcome, tracer);
      }
      if (tracer !== null) traceEnd(tracer, run, step, outcome);
      step = advance(step, outcome);
      if (step !== null && run.clockDue() && run.sliceUsedUp()) {
        const going = run;
        run = null;
        return continueAsync(going, step, null, tracer);
      }
    }
    return run.result ?? emptyResponse();
  } catch (error) {
    return failed(error, step, tracer);
  } finally {
    run?.dispose();
  }
}

/**
 * Goes on from `step`: awaiting its pending outcome first when it has one, else after waiting
 * for the next slice. Time spent waiting (for a port or a slice) is not counted as CPU.
 */
async function continueAsync(run: FlowRun, from: Step, pending: Promise<unknown> | null, tracer: FlowTracer | null): Promise<FlowResult> {
  let step: Step | null = from;
  try {
    if (pending !== null) {
      const outcome = await settle(run, pending);
      if (tracer !== null) traceEnd(tracer, run, from, outcome);
      step = advance(from, outcome);
    } else await nextSlice(run);
    while (step !== null) {
      if (tracer !== null) tracer.blockStarted(step);
      let outcome = step.execute(run);
      if (outcome instanceof Promise) outcome = await settle(run, outcome);
      if (tracer !== null) traceEnd(tracer, run, step, outcome);
      step = advance(step, outcome);
      if (step !== null && run.clockDue() && run.sliceUsedUp()) await nextSlice(run);
    }
    return run.result ?? emptyResponse();
  } catch (error) {
    return failed(error, step, tracer);
  } finally {
    run.endSlice();
    run.dispose();
  }
}

/**
 * A port call's outcome, raced against the deadline. The run goes on as the answer arrives,
 * like a new request: in a first slice.
 */
async function settle(run: FlowRun, pending: Promise<unknown>): Promise<unknown> {
  run.endSlice();
  const outcome = await run.interruptor().race(pending);
  run.startSlice(FIRST_SLICE_MS);
  return outcome;
}

async function nextSlice(run: FlowRun): Promise<void> {
  run.endSlice();
  const interruptor = run.interruptor();
  run.startSlice(await interruptor.race(run.scheduler.turn(interruptor.signal)));
}

const advance = (step: Step, outcome: unknown): Step | null => (step.flow === 'branch' && outcome !== true ? step.whenFalse : step.next);

/** What the block stored: its variable, or the answer of a Respond / Return Error. */
function traceEnd(tracer: FlowTracer, run: FlowRun, step: Step, outcome: unknown): void {
  const stored = run.skipped !== null ? run.shown : step.flow === 'end' ? run.result : step.outputSlot >= 0 ? run.vars[step.outputSlot] : undefined;
  tracer.blockEnded(step, { stored, branch: step.flow === 'branch' ? outcome === true : null, skipped: run.skipped });
  run.skipped = null;
  run.shown = undefined;
}

function failed(error: unknown, step: Step | null, tracer: FlowTracer | null): FlowResult {
  const result = failure(error, step);
  if (tracer !== null && step !== null && result.type === 'error') tracer.blockFailed(step, result);
  return result;
}

let sharedScheduler: FairScheduler | null = null;
const defaultScheduler = (): FlowScheduler => (sharedScheduler ??= new FairScheduler({ maxSliceMs: DEFAULT_FLOW_LIMITS.sliceMs }));

function deadlineAt({ timeoutMs, deadlineAt: at }: ExecuteOptions): number {
  const fromBudget = timeoutMs === undefined || !Number.isFinite(timeoutMs) ? Infinity : Date.now() + Math.max(0, timeoutMs);
  const absolute = at === undefined || !Number.isFinite(at) ? Infinity : at;
  return Math.min(fromBudget, absolute);
}

/** Refusals of the table blocks' port that the caller can act on; an unknown table or column stays a flow error. */
const DATA_ERROR_STATUS = { invalid_value: 422, unique_violation: 409, data_limit_reached: 507 } as const;

/** A flow that ends without Respond answers 200 `{}`. */
const emptyResponse = (): FlowResult => ({ type: 'response', status: 200, body: {} });

function failure(error: unknown, step: Step | null): FlowResult {
  if (error instanceof RunInterrupted) return interrupted(error, step);
  const where = step === null ? 'The flow' : `${step.label} (${step.id})`;
  const node_id = step?.id ?? null;
  if (error instanceof ValueTooLarge) return { type: 'error', status: 422, code: 'value_too_large', message: `${where}: ${error.message}`, node_id };
  if (error instanceof RunMemoryExceeded) return { type: 'error', status: 422, code: 'run_memory_exceeded', message: `${where}: ${error.message}`, node_id };
  if (error instanceof DataPortError && error.code in DATA_ERROR_STATUS) {
    const code = error.code as keyof typeof DATA_ERROR_STATUS;
    return { type: 'error', status: DATA_ERROR_STATUS[code], code, message: `${where}: ${error.message}`, node_id };
  }
  const message =
    error instanceof BlockFailure || error instanceof DataPortError
      ? `${where}: ${error.message}`
      : `${where}: failed unexpectedly${error instanceof Error && error.message ? ` (${error.message})` : ''}`;
  return { type: 'error', status: 500, code: 'flow_error', message, node_id };
}

function interrupted(error: RunInterrupted, step: Step | null): FlowResult {
  const node_id = step?.id ?? null;
  switch (error.reason) {
    case 'deadline':
      return { type: 'error', status: 504, code: 'flow_timeout', message: 'The flow did not finish before its deadline.', node_id };
    case 'cpu_budget':
      return { type: 'error', status: 504, code: 'flow_cpu_exceeded', message: 'The flow used more processing time than a request may use.', node_id };
    case 'cancelled':
      return { type: 'error', status: 503, code: 'unavailable', message: 'The request was cancelled before the flow finished.', node_id };
    case 'memory':
      return { type: 'error', status: 503, code: 'unavailable', message: 'The server running the flow is short of memory; retry shortly.', node_id };
  }
}
