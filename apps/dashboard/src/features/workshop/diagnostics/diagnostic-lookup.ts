import type { Diagnostic } from '@flowgate/flow-engine';

/**
 * Browser and server findings together, each once (the server's repeat the browser's; a refused
 * Save words a settings finding like the compile does, under the API's own code).
 */
export function mergeProblems(local: readonly Diagnostic[], server: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.severity}|${d.node_id}|${d.field}|${d.message.replace(/\.$/, '')}`;
  const seen = new Set(local.map(key));
  return [...local, ...server.filter((d) => !seen.has(key(d)))];
}

/** Findings about one config field (or anything inside it: `headers.2.value` belongs to `headers`). */
export const atField = (diagnostics: readonly Diagnostic[], nodeId: string | null, field: string): Diagnostic[] =>
  diagnostics.filter((d) => d.node_id === nodeId && d.field !== null && (d.field === field || d.field.startsWith(`${field}.`)));

/** Findings that name no block: the endpoint settings (shown on the start block) or the flow as a whole. */
export const forSettings = (diagnostics: readonly Diagnostic[]): Diagnostic[] => diagnostics.filter((d) => d.node_id === null);
