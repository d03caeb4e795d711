import { drive } from '../../execute/execute-flow';
import type { PreparedFlow } from '../../execute/prepare-flow';
import { hasOwn } from '../../json';
import type { FlowResult } from '../../runtime/flow-io';
import type { FlowRun } from '../../runtime/flow-run';
import type { TracedBlock } from '../../runtime/flow-tracer';
import { BlockFailure, FunctionFailed, InvalidArgument } from '../../runtime/run-errors';
import { articleOf, hasInputType } from '../../schema/function-inputs.schema';

/** The value of each input of `fn` from the call's arguments (by name): missing or null → its default; checked against its type. */
export function valuesFor(fn: PreparedFlow, args: unknown): unknown[] {
  const given = args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const values = new Array<unknown>(fn.inputs.length);
  for (let i = 0; i < fn.inputs.length; i++) {
    const input = fn.inputs[i];
    let value = hasOwn(given, input.name) ? given[input.name] : undefined;
    if (value === undefined || value === null) value = input.fallback;
    if (value !== null && !hasInputType(value, input.type))
      throw new InvalidArgument(`the input ${input.name} must be ${articleOf(input.type)}, not ${describe(value)}`);
    values[i] = value;
  }
  return values;
}

const describe = (value: unknown): string => (Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `the ${typeof value} ${JSON.stringify(value)}`);

/**
 * Runs `fn` inside `caller`'s run: the same request, ports, limits, deadline and budgets, one
 * level deeper (FLOW_MAX_CALL_DEPTH). The value its Return gave, or a promise of it when the
 * function went asynchronous (a port call, or its slice used up); its failure is the caller's.
 */
export function callFunction(caller: FlowRun, fn: PreparedFlow, values: readonly unknown[], block: TracedBlock): unknown {
  if (caller.depth >= caller.limits.maxCallDepth)
    throw new BlockFailure(`calls nest deeper than ${caller.limits.maxCallDepth} functions (FLOW_MAX_CALL_DEPTH)`);
  const tracer = caller.tracer === null ? null : (caller.tracer.nested?.(block) ?? null);
  const run = fn.startCall(caller, values, tracer);
  // The function's scope shares the caller's budget: its time, memory and iterations count with the caller's.
  const outcome = drive(run, fn.entry, true);
  if (outcome instanceof Promise) return outcome.then(returned);
  return returned(outcome);
}

function returned(result: FlowResult): unknown {
  if (result.type === 'error') throw new FunctionFailed(result);
  if (result.type === 'stream') {
    // Only an endpoint can answer with a stream; a function gives its caller a value.
    result.stream.cancel();
    throw new BlockFailure('the function ended with Stream Text, which only an endpoint can end with');
  }
  return result.body;
}
