import { type Diagnostic, endpointSettingsSchema } from '@flowgate/flow-engine';

/** One proposal of the model, read into what the answer carries. */
export interface DraftCandidate {
  flow: { nodes: unknown[]; edges: unknown[] };
  settings: Record<string, unknown>;
  explanation: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The tool's input as a draft: whatever the model left out of the settings comes from the
 * endpoint's (or is the schema's default), a node without a position gets one right of the previous,
 * and a flow that is not a document becomes an empty one (the diagnostics say what was wrong).
 */
export function candidateOf(input: unknown, baseSettings: Record<string, unknown>): DraftCandidate {
  const proposal = isRecord(input) ? input : {};
  const flow = isRecord(proposal.flow) ? proposal.flow : {};
  const nodes = (Array.isArray(flow.nodes) ? flow.nodes : []).map((node: unknown, index) =>
    isRecord(node) && !isRecord(node.position) ? { ...node, position: { x: index * 240, y: 0 } } : node,
  );
  const raw = { ...baseSettings, ...(isRecord(proposal.settings) ? proposal.settings : {}) };
  const parsed = endpointSettingsSchema.safeParse(raw);
  return {
    flow: { nodes, edges: Array.isArray(flow.edges) ? flow.edges : [] },
    settings: parsed.success ? stripUndefined(parsed.data) : raw,
    explanation: typeof proposal.explanation === 'string' ? proposal.explanation : '',
  };
}

const stripUndefined = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined));

export const errorCount = (diagnostics: readonly Diagnostic[]): number => diagnostics.filter((item) => item.severity === 'error').length;

/** The tool result that asks for a repair: Save's findings, one a line, with where they are. */
export function repairRequest(diagnostics: readonly Diagnostic[]): string {
  const lines = diagnostics
    .filter((item) => item.severity === 'error')
    .map((item) => {
      const where = [item.node_id && `block ${item.node_id}`, item.field && `field ${item.field}`].filter(Boolean).join(', ');
      return `- ${item.code}${where ? ` (${where})` : ''}: ${item.message}`;
    });
  return `Flowgate validated the proposal as Save does and found these problems:\n${lines.join('\n')}\nFix them and call propose_endpoint again with the whole corrected endpoint.`;
}
