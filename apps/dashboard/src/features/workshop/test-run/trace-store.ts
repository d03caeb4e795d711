import type { FlowEdge, FlowNode } from '@flowgate/flow-engine';
import { create } from 'zustand';
import type { TestRunResult, TraceEntry } from './test-run-types';

interface TraceState {
  /** The endpoint the result belongs to (the store outlives one Workshop page). */
  endpointId: string | null;
  result: TestRunResult | null;
  byNode: ReadonlyMap<string, TraceEntry>;
  /** Edges the run went along, the path shown on the canvas. */
  takenEdges: ReadonlySet<string>;
  show(endpointId: string, result: TestRunResult, flow: { nodes: readonly FlowNode[]; edges: readonly FlowEdge[] }): void;
  clear(): void;
}

const EMPTY = { endpointId: null, result: null, byNode: new Map<string, TraceEntry>(), takenEdges: new Set<string>() };

/**
 * The last test run's trace, beside the editor's store (not in its undo history): the canvas
 * reads each node's entry and the path taken from here.
 */
export const useTraceStore = create<TraceState>()((set) => ({
  ...EMPTY,
  show: (endpointId, result, flow) =>
    set({ endpointId, result, byNode: new Map(result.trace.map((entry) => [entry.node_id, entry])), takenEdges: takenEdgesOf(result.trace, flow) }),
  clear: () => set(EMPTY),
}));

/**
 * The edges the run went along: each executed block was reached from the block that ran last
 * before it among those connected to it (the start block first), by the handle that block took
 * — a condition's branch, the `error` handle after a failure it caught, a For Each's `each` for
 * its body and `done` after it. Loop iterations repeat the same edges.
 */
export function takenEdgesOf(trace: readonly TraceEntry[], { nodes, edges }: { nodes: readonly FlowNode[]; edges: readonly FlowEdge[] }): Set<string> {
  const taken = new Set<string>();
  const startId = nodes.find((node) => node.type === 'start')?.id ?? 'start';
  const ran = new Map<string, { at: number; entry: TraceEntry | null }>([[startId, { at: -1, entry: null }]]);
  trace.forEach((entry, at) => {
    let best: { edge: FlowEdge; at: number } | null = null;
    for (const edge of edges) {
      const source = edge.target === entry.node_id ? ran.get(edge.source) : undefined;
      if (!source || (best && best.at >= source.at) || (edge.sourceHandle ?? null) !== handleTaken(source.entry, entry)) continue;
      best = { edge, at: source.at };
    }
    if (best) taken.add(best.edge.id);
    ran.set(entry.node_id, { at, entry });
  });
  return taken;
}

/** The handle by which `from` led to `to`: null for an ordinary connection. */
function handleTaken(from: TraceEntry | null, to: TraceEntry): string | null {
  if (from === null) return null;
  if (from.error_path) return 'error';
  if (from.branch) return from.branch;
  if (from.type === 'for_each') return to.loop_id === from.node_id ? 'each' : 'done';
  return null;
}

/** One node's entry of the last run (undefined when it did not run or there was no run). */
export const useTraceEntry = (nodeId: string): TraceEntry | undefined => useTraceStore((state) => state.byNode.get(nodeId));
