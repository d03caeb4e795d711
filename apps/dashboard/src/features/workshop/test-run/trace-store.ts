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

/** Each executed block was reached from the one before it (the start block first); a condition left by its branch. */
export function takenEdgesOf(trace: readonly TraceEntry[], { nodes, edges }: { nodes: readonly FlowNode[]; edges: readonly FlowEdge[] }): Set<string> {
  const taken = new Set<string>();
  const startId = nodes.find((node) => node.type === 'start')?.id ?? 'start';
  const path: Array<{ id: string; branch?: string }> = [{ id: startId }, ...trace.map((entry) => ({ id: entry.node_id, branch: entry.branch }))];
  for (let i = 1; i < path.length; i++) {
    const from = path[i - 1]!;
    const edge = edges.find((candidate) => candidate.source === from.id && candidate.target === path[i]!.id && (!from.branch || candidate.sourceHandle === from.branch));
    if (edge) taken.add(edge.id);
  }
  return taken;
}

/** One node's entry of the last run (undefined when it did not run or there was no run). */
export const useTraceEntry = (nodeId: string): TraceEntry | undefined => useTraceStore((state) => state.byNode.get(nodeId));
