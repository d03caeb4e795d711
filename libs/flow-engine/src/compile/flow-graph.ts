import type { BlockFlow } from '../blocks/block-definition';
import type { DiagnosticSink } from '../diagnostics/diagnostic';
import type { FlowEdge } from '../schema/flow-document.schema';

export interface GraphNode {
  id: string;
  label: string;
  flow: BlockFlow;
  isStart: boolean;
}

/** Where a block goes next: `next` (or the `true` branch of a condition) and the `false` branch. */
export interface Successors {
  next: string | null;
  whenFalse: string | null;
}

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
}

const BRANCH_HANDLES = new Set(['true', 'false']);

/**
 * Checks the shape of the flow — one Start, edges between existing blocks, one way out of each
 * block (two, `true`/`false`, out of a Condition; none out of Respond / Return Error), no
 * loops, every block reachable — and reports paths that end without a response.
 */
export function analyseGraph(nodes: readonly GraphNode[], edges: readonly FlowEdge[], sink: DiagnosticSink): FlowGraph {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const blockDiagnostics = (node: GraphNode) => sink.forBlock(node.id, node.label);
  const starts = nodes.filter((node) => node.isStart);
  if (starts.length === 0) sink.error('missing_start', null, null, 'The flow has no Start block; add one and connect it to the first block.');
  for (const extra of starts.slice(1)) blockDiagnostics(extra).error('multiple_starts', null, 'a flow has exactly one Start block; remove this one.');
  const start = starts[0] ?? null;

  const successors = new Map<string, Successors>(nodes.map((node) => [node.id, { next: null, whenFalse: null }]));
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
    if (source.flow === 'end') {
      blockDiagnostics(source).error('edge_after_end', null, `it ends the flow, so the connection to ${target.id} would never be followed; remove it.`);
      return;
    }
    if (source.flow === 'branch') {
      const handle = edge.sourceHandle ?? '';
      if (!BRANCH_HANDLES.has(handle)) {
        blockDiagnostics(source).error('invalid_condition_handle', null, `the connection to ${target.id} must leave by the true or the false handle.`);
        return;
      }
      const key = handle === 'true' ? 'next' : 'whenFalse';
      if (slot[key] !== null) {
        blockDiagnostics(source).error('duplicate_condition_branch', null, `the ${handle} handle has more than one connection (${slot[key]} and ${target.id}).`);
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
  for (const node of nodes) {
    if (reachable.has(node.id) || (node.isStart && node === start)) reportEndWithoutResponse(node, successors.get(node.id) as Successors, sink);
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

function reportEndWithoutResponse(node: GraphNode, next: Successors, sink: DiagnosticSink): void {
  const diagnostics = sink.forBlock(node.id, node.label);
  const consequence = 'the flow ends without a Respond block and the caller gets 200 {}';
  if (node.isStart && next.next === null) {
    diagnostics.warning('no_respond', null, `nothing is connected to Start, so ${consequence}.`);
  } else if (node.flow === 'next' && next.next === null) {
    diagnostics.warning('no_respond', null, `nothing follows this block, so ${consequence}.`);
  } else if (node.flow === 'branch') {
    for (const [handle, target] of [['true', next.next], ['false', next.whenFalse]] as const) {
      if (target === null) diagnostics.warning('no_respond', null, `when the condition is ${handle}, ${consequence}.`);
    }
  }
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
