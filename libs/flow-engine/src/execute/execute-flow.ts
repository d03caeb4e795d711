import { DataPortError, type FlowPorts } from '../ports';
import { FairScheduler, type FlowScheduler } from '../runtime/fair-scheduler';
import { DEFAULT_FLOW_LIMITS } from '../runtime/flow-limits';
import { BlockFailure, FunctionFailed, InvalidArgument, IterationLimitReached, RunInterrupted, RunMemoryExceeded, ValueTooLarge } from '../runtime/run-errors';
import type { ExecuteOptions, FlowRequest, FlowResult } from '../runtime/flow-io';
import type { FlowRun } from '../runtime/flow-run';
import type { PreparedFlow, Step } from './prepare-flow';
import { runSteps, StepFailed } from './run-steps';

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
  if (options.signal?.aborted) return interrupted(new RunInterrupted('cancelled'), null);
  let run: FlowRun;
  try {
    run = flow.startRun(request, ports, {
      limits: options.limits ?? DEFAULT_FLOW_LIMITS,
      scheduler: options.scheduler ?? defaultScheduler(),
      deadlineAt: deadlineAt(options),
      signal: options.signal,
      memory: options.memory,
      tracer: options.tracer ?? null,
    });
  } catch (error) {
    return failed(error);
  }
  return drive(run, flow.entry);
}

/**
 * Runs the blocks from `entry` with `run` and ends it: an endpoint's run (`call` false: its
 * budget ends with it), or a called function's scope (`call` true: the caller's budget goes
 * on; only the values the function kept stop counting).
 */
export function drive(started: FlowRun, entry: Step | null, call = false): FlowResult | Promise<FlowResult> {
  let run: FlowRun | null = started;
  try {
    const pending = runSteps(started, entry);
    if (pending instanceof Promise) {
      run = null; // finishAsync ends it
      return finishAsync(started, pending, call);
    }
    return started.result ?? emptyResponse();
  } catch (error) {
    return failed(error);
  } finally {
    if (run !== null) end(run, call);
  }
}

function end(run: FlowRun, call: boolean): void {
  if (call) run.release();
  else run.dispose();
}

async function finishAsync(run: FlowRun, pending: Promise<void>, call: boolean): Promise<FlowResult> {
  try {
    await pending;
    return run.result ?? emptyResponse();
  } catch (error) {
    return failed(error);
  } finally {
    // A called function's caller goes on in the slice it finished in.
    if (!call) run.endSlice();
    end(run, call);
  }
}

/** The answer for a failure: named after the block (`StepFailed`), told to the tracer of the scope it failed in. */
function failed(error: unknown): FlowResult {
  if (!(error instanceof StepFailed)) return failure(error, null);
  const result = failure(error.error, error.step);
  if (error.tracer !== null && result.type === 'error') error.tracer.blockFailed(error.step, result);
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
  // A called function's failure keeps its status and code; the message says where it was called.
  if (error instanceof FunctionFailed) return { ...error.result, message: `${where}: ${error.result.message}`, node_id };
  if (error instanceof InvalidArgument) return { type: 'error', status: 422, code: 'invalid_argument', message: `${where}: ${error.message}`, node_id };
  if (error instanceof ValueTooLarge) return { type: 'error', status: 422, code: 'value_too_large', message: `${where}: ${error.message}`, node_id };
  if (error instanceof RunMemoryExceeded) return { type: 'error', status: 422, code: 'run_memory_exceeded', message: `${where}: ${error.message}`, node_id };
  if (error instanceof IterationLimitReached) return { type: 'error', status: 422, code: 'iteration_limit', message: `${where}: ${error.message}`, node_id };
  if (error instanceof DataPortError && error.code in DATA_ERROR_STATUS) {
    const code = error.code as keyof typeof DATA_ERROR_STATUS;
    return { type: 'error', status: DATA_ERROR_STATUS[code], code, message: `${where}: ${error.message}`, node_id };
  }
  if (error instanceof BlockFailure && error.answers) return { type: 'error', status: error.status ?? 500, code: error.code, message: `${where}: ${error.message}`, node_id };
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
