import type { FlowEdge, FlowNode } from '@flowgate/flow-engine';
import { catalogueEntry } from './block-fields';

export interface LoopBodies {
  /** How many For Each bodies each block is in (absent: none). */
  depth: ReadonlyMap<string, number>;
  /** Connections from a body block to a block that also runs outside the body (Deploy refuses them). */
  escapes: ReadonlySet<string>;
}

/**
 * The bodies of the For Each blocks as Deploy reads them (every block reachable from `each`), so
 * the canvas can show a body at a glance and mark a connection that leaves one.
 */
export function loopBodies(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): LoopBodies {
  const out = new Map<string, FlowEdge[]>();
  const into = new Map<string, FlowEdge[]>();
  for (const edge of edges) {
    out.set(edge.source, [...(out.get(edge.source) ?? []), edge]);
    into.set(edge.target, [...(into.get(edge.target) ?? []), edge]);
  }
  const depth = new Map<string, number>();
  const escapes = new Set<string>();
  for (const node of nodes) {
    if (catalogueEntry(node.type)?.flow !== 'loop') continue;
    const entry = (out.get(node.id) ?? []).find((edge) => edge.sourceHandle === 'each');
    if (!entry) continue;
    const body = new Set([entry.target]);
    const queue = [entry.target];
    while (queue.length > 0) {
      for (const edge of out.get(queue.pop() as string) ?? []) {
        // A body that reaches its For Each is a cycle, reported by Deploy; it is not drawn as a body.
        if (edge.target === node.id || body.has(edge.target)) continue;
        body.add(edge.target);
        queue.push(edge.target);
      }
    }
    for (const id of body) {
      depth.set(id, (depth.get(id) ?? 0) + 1);
      const incoming = into.get(id) ?? [];
      if (!incoming.some((edge) => !body.has(edge.source) && edge !== entry)) continue;
      for (const edge of incoming) if (body.has(edge.source)) escapes.add(edge.id);
    }
  }
  return { depth, escapes };
}
