/** The ids of the functions a flow document's Call Function blocks call (for cycles and "in use"). */
export function functionCallsOf(flow: unknown): string[] {
  const nodes = (flow as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return [];
  const ids = new Set<string>();
  for (const node of nodes as Array<{ type?: unknown; config?: { function?: unknown } } | null>) {
    if (node?.type === 'call_function' && typeof node.config?.function === 'string') ids.add(node.config.function);
  }
  return [...ids];
}
