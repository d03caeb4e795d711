import type { z } from 'zod';
import type { BlockFlow } from '../blocks/block-definition';
import { blockRegistry, type RegisteredBlock } from '../blocks/registry';
import { DiagnosticSink, type CompileContext, type Diagnostic } from '../diagnostics/diagnostic';
import { settingsMessage } from '../diagnostics/settings-message';
import { issueCode, issueField, issueMessage, parseForDiagnostics } from '../diagnostics/zod-issues';
import { endpointSettingsSchema, type EndpointSettings } from '../schema/endpoint-settings.schema';
import { flowDocumentSchema, type FlowNode } from '../schema/flow-document.schema';
import { referencesOf } from '../template/template-parser';
import { COMPILED_FLOW_FORMAT, type CompiledFlow } from './compiled-flow';
import { analyseGraph, type FlowGraph } from './flow-graph';
import { checkReference, type WrittenName } from './reference-check';
import { templateFields } from './template-fields';

export interface CompileInput {
  flow: unknown;
  settings: EndpointSettings;
  context?: CompileContext;
}

export type CompileResult =
  | { ok: true; compiled: CompiledFlow; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** What Save shows: every diagnostic, errors and warnings. */
export function validateFlow(input: CompileInput): Diagnostic[] {
  return analyse(input).diagnostics;
}

/** What Deploy runs: the compiled flow when there is no error (warnings ride along). */
export function compileFlow(input: CompileInput): CompileResult {
  const { diagnostics, compiled } = analyse(input);
  return compiled === null ? { ok: false, diagnostics } : { ok: true, compiled, diagnostics };
}

interface BlockEntry {
  node: FlowNode;
  label: string;
  registered: RegisteredBlock | null;
  /** The config with templates parsed, or null when it does not match the block's schema. */
  config: Record<string, unknown> | null;
}

function analyse({ flow, settings, context = {} }: CompileInput): { diagnostics: Diagnostic[]; compiled: CompiledFlow | null } {
  const sink = new DiagnosticSink();
  const endpoint = checkSettings(settings, sink);
  const document = parseForDiagnostics(flowDocumentSchema, flow);
  if (!document.success) {
    for (const issue of document.error.issues) {
      const nodeId = issue.path[0] === 'nodes' ? nodeIdAt(flow, issue.path[1]) : null;
      sink.error('invalid_document', nodeId, issueField(issue), `The flow document is invalid at ${issueField(issue) ?? 'its root'}: ${issue.message}.`);
    }
    return { diagnostics: sink.items, compiled: null };
  }

  const entries = parseBlocks(document.data.nodes, sink);
  const graph = analyseGraph(
    [...entries.values()].map(({ node, label, registered }) => ({
      id: node.id,
      label,
      flow: (registered?.definition.flow ?? 'next') as BlockFlow,
      isStart: node.type === 'start',
    })),
    document.data.edges,
    sink,
  );
  checkBlocks(entries, graph, endpoint, context, sink);
  if (sink.hasErrors() || graph.startId === null) return { diagnostics: sink.items, compiled: null };
  return { diagnostics: sink.items, compiled: buildCompiledFlow(entries, graph, endpoint) };
}

interface EndpointFacts {
  method: string;
  query_params: Array<{ key: string; default: string | null }>;
}

function checkSettings(settings: EndpointSettings, sink: DiagnosticSink): EndpointFacts {
  const parsed = parseForDiagnostics(endpointSettingsSchema, settings);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    sink.error(issueCode(issue), null, issueField(issue), `${settingsMessage(issue.path.map(String), issue.message)}.`);
  }
  // Go on with what can be read, so the flow's own problems are reported too.
  const raw = (settings ?? {}) as Partial<EndpointSettings>;
  const params = Array.isArray(raw.query_params) ? raw.query_params : [];
  return {
    method: typeof raw.method === 'string' ? raw.method : 'GET',
    query_params: params
      .filter((param) => typeof param?.key === 'string')
      .map((param) => ({ key: param.key, default: typeof param.default === 'string' ? param.default : null })),
  };
}

function nodeIdAt(flow: unknown, index: PropertyKey | undefined): string | null {
  const nodes = (flow as { nodes?: unknown } | null)?.nodes;
  const node = Array.isArray(nodes) && typeof index === 'number' ? (nodes[index] as { id?: unknown } | undefined) : undefined;
  return typeof node?.id === 'string' ? node.id : null;
}

function parseBlocks(nodes: readonly FlowNode[], sink: DiagnosticSink): Map<string, BlockEntry> {
  const entries = new Map<string, BlockEntry>();
  for (const node of nodes) {
    const registered = blockRegistry.get(node.type) ?? null;
    const label = registered?.definition.label ?? node.type;
    const diagnostics = sink.forBlock(node.id, label);
    if (entries.has(node.id)) {
      diagnostics.error('duplicate_node_id', null, `another block already has the id "${node.id}"; block ids must be unique.`);
      continue;
    }
    if (registered === null) {
      diagnostics.error('unknown_block_type', null, `"${node.type}" is not a block type.`);
      entries.set(node.id, { node, label, registered, config: null });
      continue;
    }
    const parsed = parseForDiagnostics(registered.compileSchema, node.config ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        diagnostics.error(issueCode(issue), issueField(issue), `${issueMessage(issue, shapeOf(registered.sourceSchema))}.`);
      }
    }
    entries.set(node.id, { node, label, registered, config: parsed.success ? (parsed.data as Record<string, unknown>) : null });
  }
  return entries;
}

const shapeOf = (schema: z.ZodObject): Record<string, z.ZodType> => schema.shape as Record<string, z.ZodType>;

function checkBlocks(
  entries: ReadonlyMap<string, BlockEntry>,
  graph: FlowGraph,
  endpoint: EndpointFacts,
  context: CompileContext,
  sink: DiagnosticSink,
): void {
  const written: WrittenName[] = [];
  for (const { node, registered, config } of entries.values()) {
    if (registered === null || config === null) continue;
    for (const output of registered.definition.outputs?.(config) ?? []) written.push({ ...output, nodeId: node.id });
  }
  const paramKeys = new Set(endpoint.query_params.map((param) => param.key));
  const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
  const secretNames = context.secret_names === undefined ? undefined : new Set(context.secret_names);

  for (const { node, label, registered, config } of entries.values()) {
    if (registered === null || config === null) continue;
    const diagnostics = sink.forBlock(node.id, label);
    registered.definition.check?.(config, diagnostics, { method: endpoint.method, context });
    // An unreachable block is already an error; its references have no "before" to check against.
    if (!graph.reachable.has(node.id)) continue;
    const ancestors = graph.ancestorsOf(node.id);
    const scope = { paramKeys, hasBody, secretNames, allWritten: written, writtenBefore: written.filter((name) => ancestors.has(name.nodeId)) };
    for (const { field, ast } of templateFields(config)) {
      for (const ref of referencesOf(ast)) checkReference(ref, field, scope, diagnostics);
    }
  }
}

function buildCompiledFlow(entries: ReadonlyMap<string, BlockEntry>, graph: FlowGraph, endpoint: EndpointFacts): CompiledFlow {
  const ids = graph.order.filter((id) => id !== graph.startId);
  const index = new Map(ids.map((id, position) => [id, position]));
  const indexOf = (id: string | null): number | null => (id === null ? null : (index.get(id) ?? null));
  return {
    format: COMPILED_FLOW_FORMAT,
    query_params: endpoint.query_params.map(({ key, default: fallback }) => ({ key, default: fallback })),
    entry: indexOf(graph.successors.get(graph.startId as string)?.next ?? null),
    blocks: ids.map((id) => {
      const { node, registered, config } = entries.get(id) as BlockEntry;
      const successors = graph.successors.get(id);
      const block: CompiledFlow['blocks'][number] = { id, type: node.type, config: config ?? {}, next: indexOf(successors?.next ?? null) };
      if (registered?.definition.flow === 'branch') block.next_when_false = indexOf(successors?.whenFalse ?? null);
      return block;
    }),
  };
}
