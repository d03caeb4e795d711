import type { BlockExecutor, BlockFlow, PrepareContext } from '../blocks/block-definition';
import { blockRegistry } from '../blocks/registry';
import { compiledFlowSchema, type CompiledFlow } from '../compile/compiled-flow';
import type { FlowPorts } from '../ports';
import type { FlowRequest } from '../runtime/flow-io';
import { FlowRun, type RunBounds } from '../runtime/flow-run';
import { ResolverFactory, type SlotTable } from '../template/template-resolver';

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
  /** The next step; for a Condition, the `true` branch. */
  readonly next: Step | null;
  readonly whenFalse: Step | null;
}

interface ParamSlot {
  slot: number;
  key: string;
  fallback: string | null;
}

/** A compiled flow turned into linked closures; build once per cache load, run many times. */
export class PreparedFlow {
  constructor(
    readonly entry: Step | null,
    private readonly slotCount: number,
    private readonly params: readonly ParamSlot[],
  ) {}

  /** Query parameters: the request's value, else the default, else null; others are ignored. */
  startRun(request: FlowRequest, ports: FlowPorts, bounds: RunBounds): FlowRun {
    const run = new FlowRun(request, ports, this.slotCount, bounds);
    for (let i = 0; i < this.params.length; i++) {
      const { slot, key, fallback } = this.params[i];
      const value = request.query.get(key);
      run.vars[slot] = value === null ? fallback : value;
    }
    return run;
  }
}

class Slots implements SlotTable {
  readonly params: ParamSlot[] = [];
  private readonly variables = new Map<string, number>();
  private count = 0;

  constructor(private readonly configured: ReadonlyMap<string, string | null>) {}

  get size(): number {
    return this.count;
  }

  param(name: string): number {
    const known = this.params.find((param) => param.key === name);
    if (known) return known.slot;
    if (!this.configured.has(name)) throw new Error(`{params.${name}} is not a configured query parameter`);
    this.params.push({ slot: this.count, key: name, fallback: this.configured.get(name) ?? null });
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

/** Throws when the document is not a compiled flow this engine understands. */
export function prepareFlow(compiled: CompiledFlow): PreparedFlow {
  const parsed = compiledFlowSchema.safeParse(compiled);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Malformed compiled flow: ${problems.join('; ')}`);
  }
  const flow = parsed.data;
  const slots = new Slots(new Map(flow.query_params.map((param) => [param.key, param.default])));
  const resolvers = new ResolverFactory(slots);
  const steps: Array<Step | null> = new Array<Step | null>(flow.blocks.length).fill(null);
  // Every connection points forward, so building from the end links each step to built ones.
  for (let index = flow.blocks.length - 1; index >= 0; index--) {
    const block = flow.blocks[index];
    const registered = blockRegistry.get(block.type);
    if (!registered || block.type === 'start') throw new Error(`Malformed compiled flow: block ${block.id} has type "${block.type}"`);
    const config = registered.compiledSchema.safeParse(block.config);
    if (!config.success) throw new Error(`Malformed compiled flow: config of block ${block.id}: ${config.error.message}`);
    const { definition } = registered;
    let outputSlot = -1;
    const context: PrepareContext = {
      nodeId: block.id,
      label: definition.label,
      value: (ast) => resolvers.value(ast),
      text: (ast) => resolvers.text(ast),
      variable: (name) => (outputSlot = slots.variable(name)),
    };
    const link = (target: number | null | undefined): Step | null => {
      if (target === null || target === undefined) return null;
      if (target <= index || target >= steps.length) throw new Error(`Malformed compiled flow: block ${block.id} does not lead forward`);
      return steps[target];
    };
    const execute = definition.prepare(config.data, context);
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
    };
  }
  if (flow.entry !== null && (flow.entry < 0 || flow.entry >= steps.length)) throw new Error('Malformed compiled flow: entry is out of range');
  return new PreparedFlow(flow.entry === null ? null : steps[flow.entry], slots.size, slots.params);
}
