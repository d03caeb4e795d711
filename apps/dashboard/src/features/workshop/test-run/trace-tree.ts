import type { TraceEntry } from './test-run-types';

/** A trace entry with the iterations of its loop grouped under it (a For Each's entry). */
export interface TraceNode {
  entry: TraceEntry;
  iterations: Array<{ iteration: number; steps: TraceNode[] }>;
}

/**
 * The trace as the panel shows it: top-level blocks in order; a loop body's entries under the
 * For Each they ran in (its latest entry: an inner loop runs once per outer iteration), grouped
 * by iteration in the order they ran.
 */
export function traceTree(trace: readonly TraceEntry[]): TraceNode[] {
  const top: TraceNode[] = [];
  const latestLoop = new Map<string, TraceNode>();
  for (const entry of trace) {
    const node: TraceNode = { entry, iterations: [] };
    if (entry.type === 'for_each') latestLoop.set(entry.node_id, node);
    const loop = entry.loop_id === undefined ? undefined : latestLoop.get(entry.loop_id);
    if (loop === undefined || entry.iteration === undefined) {
      top.push(node);
      continue;
    }
    let group = loop.iterations.find((candidate) => candidate.iteration === entry.iteration);
    if (group === undefined) {
      group = { iteration: entry.iteration, steps: [] };
      loop.iterations.push(group);
      loop.iterations.sort((a, b) => a.iteration - b.iteration);
    }
    group.steps.push(node);
  }
  return top;
}
