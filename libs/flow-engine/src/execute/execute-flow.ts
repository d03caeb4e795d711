import type { FlowPorts } from '../ports';
import { BlockFailure, RunInterrupted } from '../runtime/run-errors';
import type { ExecuteOptions, FlowRequest, FlowResult } from '../runtime/flow-io';
import type { FlowRun } from '../runtime/flow-run';
import type { PreparedFlow, Step } from './prepare-flow';

/** Above this, `deadlineMs` is an absolute `Date.now()` timestamp rather than a budget. */
const ABSOLUTE_DEADLINE_THRESHOLD = 1e12;

/**
 * Synchronous blocks are linear in their input, so reading the clock after every one of them
 * would cost more than it protects: it is read after every few, and around every port call.
 */
const BLOCKS_PER_CLOCK_READING = 4;

/**
 * Runs a prepared flow. Never rejects: every failure becomes an error result. Synchronous
 * blocks run in a plain loop; the first block that calls a port switches to an async
 * continuation, so a flow without such blocks awaits nothing.
 */
export function executeFlow(flow: PreparedFlow, request: FlowRequest, ports: FlowPorts, options: ExecuteOptions = {}): Promise<FlowResult> {
  const result = runFlow(flow, request, ports, options);
  return result instanceof Promise ? result : Promise.resolve(result);
}

/**
 * `executeFlow` without the promise when the flow finished synchronously (no block called a
 * port): the result itself, so that a server can answer within the same call. A promise
 * (which never rejects) otherwise.
 */
export function runFlow(flow: PreparedFlow, request: FlowRequest, ports: FlowPorts, options: ExecuteOptions = {}): FlowResult | Promise<FlowResult> {
  let step: Step | null = null;
  try {
    if (options.signal?.aborted) return interrupted(new RunInterrupted('cancelled'), null);
    const run = flow.startRun(request, ports, deadlineAt(options.deadlineMs), options.signal);
    step = flow.entry;
    let untilClock = BLOCKS_PER_CLOCK_READING;
    while (step !== null) {
      if (step.async) return continueAsync(run, step);
      step = advance(step, step.execute(run));
      if (--untilClock === 0 && step !== null) {
        untilClock = BLOCKS_PER_CLOCK_READING;
        if (run.deadlineAt !== Infinity && Date.now() >= run.deadlineAt) return interrupted(new RunInterrupted('deadline'), step);
      }
    }
    return run.result ?? emptyResponse();
  } catch (error) {
    return failure(error, step);
  }
}

async function continueAsync(run: FlowRun, first: Step): Promise<FlowResult> {
  let step: Step | null = first;
  try {
    while (step !== null) {
      const outcome: unknown = step.async ? await run.interruptor().race(step.execute(run) as Promise<unknown>) : step.execute(run);
      step = advance(step, outcome);
      if (run.deadlineAt !== Infinity && step !== null && Date.now() >= run.deadlineAt) throw new RunInterrupted('deadline');
    }
    return run.result ?? emptyResponse();
  } catch (error) {
    return failure(error, step);
  } finally {
    run.dispose();
  }
}

const advance = (step: Step, outcome: unknown): Step | null => (step.flow === 'branch' && outcome !== true ? step.whenFalse : step.next);

function deadlineAt(deadlineMs: number | undefined): number {
  if (deadlineMs === undefined || !Number.isFinite(deadlineMs)) return Infinity;
  return deadlineMs > ABSOLUTE_DEADLINE_THRESHOLD ? deadlineMs : Date.now() + Math.max(0, deadlineMs);
}

/** A flow that ends without Respond answers 200 `{}`. */
const emptyResponse = (): FlowResult => ({ type: 'response', status: 200, body: {} });

function failure(error: unknown, step: Step | null): FlowResult {
  if (error instanceof RunInterrupted) return interrupted(error, step);
  const where = step === null ? 'The flow' : `${step.label} (${step.id})`;
  const message =
    error instanceof BlockFailure
      ? `${where}: ${error.message}`
      : `${where}: failed unexpectedly${error instanceof Error && error.message ? ` (${error.message})` : ''}`;
  return { type: 'error', status: 500, code: 'flow_error', message, node_id: step?.id ?? null };
}

function interrupted(error: RunInterrupted, step: Step | null): FlowResult {
  const node_id = step?.id ?? null;
  return error.reason === 'deadline'
    ? { type: 'error', status: 504, code: 'flow_timeout', message: 'The flow did not finish before its deadline.', node_id }
    : { type: 'error', status: 503, code: 'unavailable', message: 'The request was cancelled before the flow finished.', node_id };
}
