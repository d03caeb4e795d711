import type { BlockFlow } from '../blocks/block-definition';
import type { DiagnosticSink } from '../diagnostics/diagnostic';
import type { FlowEdge } from '../schema/flow-document.schema';

export interface GraphNode {
  id: string;
  label: string;
  flow: BlockFlow;
  isStart: boolean;
  /** May have an `error` handle (see `BlockDefinition.canFail`). */
  canFail?: boolean;
}

/** Where a block goes next: `next` (or the `true` branch of a condition) and the `false` branch. */
export interface Successors {
  next: string | null;
  whenFalse: string | null;
  /** A For Each's `each` handle (its `done` handle is `next`). */
  body: string | null;
  /** The `error` handle. */
  onError: string | null;
}

/** For Each nests to this depth; deeper is a Deploy error. */
export const MAX_LOOP_DEPTH = 3;

export interface FlowGraph {
  startId: string | null;
  successors: ReadonlyMap<string, Successors>;
  /** Blocks a request can reach from Start. */
  reachable: ReadonlySet<string>;
  hasCycle: boolean;
  /** Reachable blocks, each after every block that leads to it (empty when there is a cycle). */
  order: string[];
  /** Blocks that run before `id` on at least one path. */
  ancestorsOf(id: string): ReadonlySet<string>;
  /** The For Each blocks whose body `id` is in, outermost first. */
  loopsOf(id: string): readonly string[];
}

interface NamedHandles {
  slots: Readonly<Record<string, 'next' | 'whenFalse' | 'body'>>;
  invalid: string;
  duplicate: string;
}

/** Blocks whose connections leave by named handles: a Condition (`true`/`false`), a For Each (`each`/`done`). */
const NAMED_HANDLES: Readonly<Record<'branch' | 'loop', NamedHandles>> = {
  branch: { slots: { true: 'next', false: 'whenFalse' }, invalid: 'invalid_condition_handle', duplicate: 'duplicate_condition_branch' },
  loop: { slots: { each: 'body', done: 'next' }, invalid: 'invalid_loop_handle', duplicate: 'multiple_next_blocks' },
};

/**
 * Checks the shape of the flow — one Start, edges between existing blocks, one way out of each
 * block (two, `true`/`false`, out of a Condition; none out of Respond / Return Error), no
 * loops, every block reachable — and reports paths that end without a response.
 */
export function analyseGraph(nodes: readonly GraphNode[], edges: readonly FlowEdge[], sink: DiagnosticSink, kind: 'endpoint' | 'function' | 'schedule' = 'endpoint'): FlowGraph {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const blockDiagnostics = (node: GraphNode) => sink.forBlock(node.id, node.label);
  const starts = nodes.filter((node) => node.isStart);
  if (starts.length === 0) sink.error('missing_start', null, null, 'The flow has no Start block; add one and connect it to the first block.');
  for (const extra of starts.slice(1)) blockDiagnostics(extra).error('multiple_starts', null, 'a flow has exactly one Start block; remove this one.');
  const start = starts[0] ?? null;

  const successors = new Map<string, Successors>(nodes.map((node) => [node.id, { next: null, whenFalse: null, body: null, onError: null }]));
  const adjacency = new Map<string, string[]>(nodes.map((node) => [node.id, []]));
  edges.forEach((edge, index) => {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source || !target) {
      const missing = source ? 'target' : 'source';
      sink.error('unknown_edge_block', null, `edges.${index}.${missing}`, `Connection ${edge.id} points to a block that does not exist (${edge[missing]}).`);
      return;
    }
    if (target.isStart) {
      blockDiagnostics(target).error('edge_into_start', null, `a connection from ${source.id} leads back into Start; Start can only lead out.`);
      return;
    }
    const slot = successors.get(source.id) as Successors;
    if (edge.sourceHandle === 'error') {
      if (!source.canFail) {
        blockDiagnostics(source).error('invalid_error_handle', null, `it cannot fail on its own, so it has no error handle; connect ${target.id} to its usual handle.`);
        return;
      }
      if (slot.onError !== null) {
        blockDiagnostics(source).error('multiple_next_blocks', null, `its error handle connects to both ${slot.onError} and ${target.id}; a handle leads to one next block.`);
        return;
      }
      slot.onError = target.id;
      (adjacency.get(source.id) as string[]).push(target.id);
      return;
    }
    if (source.flow === 'end') {
      blockDiagnostics(source).error('edge_after_end', null, `it ends the flow, so the connection to ${target.id} would never be followed; remove it.`);
      return;
    }
    const named = NAMED_HANDLES[source.flow as 'branch' | 'loop'] as NamedHandles | undefined;
    if (named !== undefined) {
      const handle = edge.sourceHandle ?? '';
      const key = Object.hasOwn(named.slots, handle) ? named.slots[handle] : undefined;
      if (key === undefined) {
        blockDiagnostics(source).error(named.invalid, null, `the connection to ${target.id} must leave by the ${Object.keys(named.slots).join(' or the ')} handle.`);
        return;
      }
      if (slot[key] !== null) {
        blockDiagnostics(source).error(named.duplicate, null, `the ${handle} handle has more than one connection (${slot[key]} and ${target.id}).`);
        return;
      }
      slot[key] = target.id;
    } else {
      if (slot.next !== null) {
        blockDiagnostics(source).error('multiple_next_blocks', null, `it connects to both ${slot.next} and ${target.id}; a block leads to one next block (use a Condition to branch).`);
        return;
      }
      slot.next = target.id;
    }
    (adjacency.get(source.id) as string[]).push(target.id);
  });

  const hasCycle = reportCycles(nodes, adjacency, byId, sink);
  const reachable = reachableFrom(start?.id ?? null, adjacency);
  for (const node of nodes) {
    if (!node.isStart && !reachable.has(node.id)) {
      blockDiagnostics(node).error('unreachable_block', null, 'no path from Start leads here, so it would never run; connect it or remove it.');
    }
  }
  const loops = hasCycle ? new Map<string, string[]>() : analyseLoops(nodes, successors, adjacency, sink);
  for (const node of nodes) {
    // A body path that ends is an iteration that is over, not a request without an answer.
    if ((reachable.has(node.id) || (node.isStart && node === start)) && !loops.has(node.id)) reportEndWithoutResponse(node, successors.get(node.id) as Successors, sink, kind);
  }

  const order = hasCycle || start === null ? [] : topologicalOrder(start.id, adjacency, reachable);
  const ancestorCache = new Map<string, Set<string>>();
  const predecessors = invert(adjacency);
  return {
    startId: start?.id ?? null,
    successors,
    reachable,
    hasCycle,
    order,
    loopsOf: (id) => loops.get(id) ?? [],
    ancestorsOf: (id) => {
      let ancestors = ancestorCache.get(id);
      if (ancestors === undefined) {
        ancestors = reachableFrom(id, predecessors);
        ancestors.delete(id);
        ancestorCache.set(id, ancestors);
      }
      return ancestors;
    },
  };
}

/** An endpoint's path without Respond answers 200 {} (a warning); a function's path without Return has no value to return (an error). */
function reportEndWithoutResponse(node: GraphNode, next: Successors, sink: DiagnosticSink, kind: 'endpoint' | 'function' | 'schedule'): void {
  // A schedule answers nobody: a path may end anywhere.
  if (kind === 'schedule') return;
  const diagnostics = sink.forBlock(node.id, node.label);
  const report =
    kind === 'function'
      ? (where: string) => diagnostics.error('no_return', null, `${where}, so the function ends without a Return block; end every path with Return.`)
      : (where: string) => diagnostics.warning('no_respond', null, `${where}, so the flow ends without a Respond block and the caller gets 200 {}.`);
  if (node.isStart && next.next === null) {
    report('nothing is connected to Start');
  } else if ((node.flow === 'next' || node.flow === 'loop') && next.next === null) {
    report('nothing follows this block');
  } else if (node.flow === 'branch') {
    for (const [handle, target] of [['true', next.next], ['false', next.whenFalse]] as const) {
      if (target === null) report(`when the condition is ${handle}`);
    }
  }
}

/**
 * The body of each For Each: every block reachable from its `each` handle. A body block may only
 * be entered from the body (or the `each` handle): a connection into a block that also runs
 * outside the body escapes it. Returns, for each body block, the loops it is in (outermost first).
 */
function analyseLoops(
  nodes: readonly GraphNode[],
  successors: ReadonlyMap<string, Successors>,
  adjacency: ReadonlyMap<string, string[]>,
  sink: DiagnosticSink,
): Map<string, string[]> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const predecessors = invert(adjacency);
  const bodies = new Map<string, Set<string>>();
  for (const node of nodes) {
    const entry = node.flow === 'loop' ? (successors.get(node.id)?.body ?? null) : null;
    if (entry === null) continue;
    const body = reachableFrom(entry, adjacency);
    bodies.set(node.id, body);
    for (const id of body) {
      const outside = (predecessors.get(id) ?? []).filter((source) => !body.has(source) && !(source === node.id && id === entry));
      if (outside.length === 0) continue;
      for (const source of predecessors.get(id) ?? []) {
        if (!body.has(source)) continue;
        const from = byId.get(source) as GraphNode;
        sink
          .forBlock(from.id, from.label)
          .error(
            'loop_body_escapes',
            null,
            `its connection to ${id} leaves the body of the For Each ${node.id} (${id} also runs outside the loop); a body path ends at a block with no outgoing connection.`,
          );
      }
    }
  }
  const loopsOf = new Map<string, string[]>();
  // Outer loops first: a loop's body holds the bodies of the loops inside it.
  const ordered = [...bodies.keys()].sort((a, b) => (bodies.get(b) as Set<string>).size - (bodies.get(a) as Set<string>).size);
  for (const loop of ordered) for (const id of bodies.get(loop) as Set<string>) loopsOf.set(id, [...(loopsOf.get(id) ?? []), loop]);
  for (const node of nodes) {
    const depth = (loopsOf.get(node.id)?.length ?? 0) + 1;
    if (node.flow === 'loop' && depth > MAX_LOOP_DEPTH) {
      sink.forBlock(node.id, node.label).error('loop_too_deep', null, `it is a For Each inside ${depth - 1} others; For Each nests to a depth of ${MAX_LOOP_DEPTH}.`);
    }
  }
  return loopsOf;
}

/** Reports each loop once, naming its blocks in order. */
function reportCycles(
  nodes: readonly GraphNode[],
  adjacency: ReadonlyMap<string, string[]>,
  byId: ReadonlyMap<string, GraphNode>,
  sink: DiagnosticSink,
): boolean {
  const state = new Map<string, 'active' | 'done'>();
  let found = false;
  for (const root of nodes) {
    if (state.has(root.id)) continue;
    // Iterative depth-first search; `path` is the chain of active blocks.
    const path: string[] = [root.id];
    const cursors: number[] = [0];
    state.set(root.id, 'active');
    while (path.length > 0) {
      const current = path[path.length - 1];
      const targets = adjacency.get(current) as string[];
      const cursor = cursors[cursors.length - 1]++;
      if (cursor >= targets.length) {
        state.set(current, 'done');
        path.pop();
        cursors.pop();
        continue;
      }
      const target = targets[cursor];
      const seen = state.get(target);
      if (seen === 'active') {
        found = true;
        const loop = [...path.slice(path.indexOf(target)), target];
        const node = byId.get(target) as GraphNode;
        sink.forBlock(node.id, node.label).error('cycle', null, `blocks form a loop (${loop.join(' → ')}); a flow runs each block at most once.`);
      } else if (seen === undefined) {
        state.set(target, 'active');
        path.push(target);
        cursors.push(0);
      }
    }
  }
  return found;
}

function reachableFrom(origin: string | null, adjacency: ReadonlyMap<string, string[]>): Set<string> {
  const seen = new Set<string>();
  if (origin === null) return seen;
  const queue = [origin];
  seen.add(origin);
  for (let i = 0; i < queue.length; i++) {
    for (const target of adjacency.get(queue[i]) ?? []) {
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return seen;
}

function invert(adjacency: ReadonlyMap<string, string[]>): Map<string, string[]> {
  const inverted = new Map<string, string[]>([...adjacency.keys()].map((id) => [id, []]));
  for (const [source, targets] of adjacency) for (const target of targets) inverted.get(target)?.push(source);
  return inverted;
}

/** Kahn's algorithm over the reachable part (acyclic here), keeping connection order for ties. */
function topologicalOrder(startId: string, adjacency: ReadonlyMap<string, string[]>, reachable: ReadonlySet<string>): string[] {
  const incoming = new Map<string, number>([...reachable].map((id) => [id, 0]));
  for (const id of reachable) for (const target of adjacency.get(id) ?? []) incoming.set(target, (incoming.get(target) ?? 0) + 1);
  const order: string[] = [];
  const ready = [startId];
  while (ready.length > 0) {
    const id = ready.shift() as string;
    order.push(id);
    for (const target of adjacency.get(id) ?? []) {
      const remaining = (incoming.get(target) ?? 0) - 1;
      incoming.set(target, remaining);
      if (remaining === 0) ready.push(target);
    }
  }
  return order;
}
