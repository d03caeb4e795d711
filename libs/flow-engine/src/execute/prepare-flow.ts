import type { BlockExecutor, BlockFlow, PrepareContext } from '../blocks/block-definition';
import { blockRegistry } from '../blocks/registry';
import { compiledFlowSchema, type CompiledFlow } from '../compile/compiled-flow';
import { queryValueProblem, typedQueryValue } from '../schema/endpoint-settings.schema';
import type { QueryParamType } from '../schema/inbound-settings.schema';
import type { FlowPorts } from '../ports';
import type { JsonValue } from '../json';
import type { FunctionInputType } from '../schema/function-inputs.schema';
import type { FlowRequest } from '../runtime/flow-io';
import type { FlowTracer } from '../runtime/flow-tracer';
import { FlowRun, type RunBounds } from '../runtime/flow-run';
import { ResolverFactory, type SlotTable } from '../template/template-resolver';
import { errorVariable } from '../template/error-variable';
import { runSteps } from './run-steps';

/** One block ready to run, linked to the block(s) after it. */
export interface Step {
  readonly id: string;
  readonly type: string;
  readonly label: string;
  /** The variable slot the block writes, or -1 (for a tracer: what the block stored). */
  readonly outputSlot: number;
  readonly flow: BlockFlow;
  readonly async: boolean;
  readonly execute: BlockExecutor;
  /** The next step; for a Condition, the `true` branch; for a For Each, its `done` handle. */
  readonly next: Step | null;
  readonly whenFalse: Step | null;
  /** The `error` handle's step, or null (a failure ends the request). */
  readonly onError: Step | null;
  /** The slot of `{REF.error}` when `onError` is set, else -1. */
  readonly errorSlot: number;
}

interface ParamSlot {
  slot: number;
  key: string;
  fallback: string | null;
  type: QueryParamType | undefined;
}

/** A function's input: its slot, and what the call checks its value against. */
export interface InputSlot {
  slot: number;
  name: string;
  type: FunctionInputType;
  fallback: JsonValue;
}

/** A compiled flow turned into linked closures; build once per cache load, run many times. */
export class PreparedFlow {
  constructor(
    readonly entry: Step | null,
    private readonly slotCount: number,
    private readonly params: readonly ParamSlot[],
    /** A function's inputs (empty for an endpoint's flow). */
    readonly inputs: readonly InputSlot[] = [],
  ) {}

  /** Query parameters: the request's value, else the default, else null; others are ignored. */
  startRun(request: FlowRequest, ports: FlowPorts, bounds: RunBounds): FlowRun {
    const run = new FlowRun(request, ports, this.slotCount, bounds);
    for (let i = 0; i < this.params.length; i++) {
      const { slot, key, fallback, type } = this.params[i];
      const raw = request.query.get(key) ?? fallback;
      // Typed parameters were checked before the run (the gateway answers 400 otherwise); a value
      // that still does not fit (a test run's free text) stays text.
      run.vars[slot] = raw === null || type === undefined || queryValueProblem(this.params[i], raw) !== null ? raw : typedQueryValue(type, raw);
    }
    return run;
  }

  /**
   * A run of this function called from `caller` (Call Function): a scope with the caller's request
   * and ports over the caller's RunBudget (limits, deadline, time, memory, iterations), one level deeper. `values` holds one value per input, in
   * the order of `inputs` (checked by the caller).
   */
  startCall(caller: FlowRun, values: readonly unknown[], tracer: FlowTracer | null): FlowRun {
    const run = caller.callScope(this.slotCount, tracer);
    for (let i = 0; i < this.inputs.length; i++) run.vars[this.inputs[i].slot] = values[i];
    return run;
  }
}

class Slots implements SlotTable {
  readonly params: ParamSlot[] = [];
  private readonly variables = new Map<string, number>();
  private count = 0;

  readonly inputs: InputSlot[];

  constructor(
    private readonly configured: ReadonlyMap<string, { default: string | null; type?: QueryParamType }>,
    declared: ReadonlyArray<{ name: string; type: FunctionInputType; default: JsonValue }>,
  ) {
    // Every declared input has a slot, read or not: a call fills them all.
    this.inputs = declared.map((input) => ({ slot: this.count++, name: input.name, type: input.type, fallback: input.default }));
  }

  input(name: string): number {
    const known = this.inputs.find((input) => input.name === name);
    if (!known) throw new Error(`{input.${name}} is not an input of the function`);
    return known.slot;
  }

  get size(): number {
    return this.count;
  }

  param(name: string): number {
    const known = this.params.find((param) => param.key === name);
    if (known) return known.slot;
    if (!this.configured.has(name)) throw new Error(`{params.${name}} is not a configured query parameter`);
    const configured = this.configured.get(name);
    this.params.push({ slot: this.count, key: name, fallback: configured?.default ?? null, type: configured?.type === 'string' ? undefined : configured?.type });
    return this.count++;
  }

  variable(name: string): number {
    let slot = this.variables.get(name);
    if (slot === undefined) {
      slot = this.count++;
      this.variables.set(name, slot);
    }
    return slot;
  }
}

/** The name a block keeps its result under (`ref`, or an external request's `name`). */
function referenceNameOf(config: Record<string, unknown>): string | null {
  const name = config.ref ?? config.name;
  return typeof name === 'string' ? name : null;
}

/** Throws when the document is not a compiled flow this engine understands. */
export function prepareFlow(compiled: CompiledFlow): PreparedFlow {
  const parsed = compiledFlowSchema.safeParse(compiled);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Malformed compiled flow: ${problems.join('; ')}`);
  }
  const flow = parsed.data;
  const slots = new Slots(new Map(flow.query_params.map((param) => [param.key, param])), flow.inputs ?? []);
  // `{REF.error}` of a block with an `error` handle reads the failure, kept apart from its result.
  const caught = new Set<string>();
  for (const block of flow.blocks) {
    const name = block.on_error === undefined || block.on_error === null ? null : referenceNameOf(block.config);
    if (name !== null) caught.add(name);
  }
  const resolvers = new ResolverFactory(slots, caught);
  const steps: Array<Step | null> = new Array<Step | null>(flow.blocks.length).fill(null);
  // Every connection points forward, so building from the end links each step to built ones.
  for (let index = flow.blocks.length - 1; index >= 0; index--) {
    const block = flow.blocks[index];
    const registered = blockRegistry.get(block.type);
    if (!registered || block.type === 'start') throw new Error(`Malformed compiled flow: block ${block.id} has type "${block.type}"`);
    const config = registered.compiledSchema.safeParse(block.config);
    if (!config.success) throw new Error(`Malformed compiled flow: config of block ${block.id}: ${config.error.message}`);
    const { definition } = registered;
    const link = (target: number | null | undefined): Step | null => {
      if (target === null || target === undefined) return null;
      if (target <= index || target >= steps.length) throw new Error(`Malformed compiled flow: block ${block.id} does not lead forward`);
      return steps[target];
    };
    const onError = link(block.on_error);
    const body = definition.flow === 'loop' ? link(block.body) : null;
    let outputSlot = -1;
    const context: PrepareContext = {
      nodeId: block.id,
      label: definition.label,
      value: (ast) => resolvers.value(ast),
      text: (ast) => resolvers.text(ast),
      variable: (name) => (outputSlot = slots.variable(name)),
      hasErrorPath: onError !== null,
      body: (run) => runSteps(run, body),
    };
    const execute = definition.prepare(config.data, context);
    const refName = onError === null ? null : referenceNameOf(block.config);
    steps[index] = {
      id: block.id,
      type: block.type,
      label: definition.label,
      outputSlot,
      flow: definition.flow,
      async: definition.async === true,
      execute,
      next: definition.flow === 'end' ? null : link(block.next),
      whenFalse: definition.flow === 'branch' ? link(block.next_when_false) : null,
      onError,
      errorSlot: refName === null ? -1 : slots.variable(errorVariable(refName)),
    };
  }
  if (flow.entry !== null && (flow.entry < 0 || flow.entry >= steps.length)) throw new Error('Malformed compiled flow: entry is out of range');
  return new PreparedFlow(flow.entry === null ? null : steps[flow.entry], slots.size, slots.params, slots.inputs);
}
