import type { z } from 'zod';
import { blockCanFail, type BlockFlow, type BlockOutput } from '../blocks/block-definition';
import { blockRegistry, type RegisteredBlock } from '../blocks/registry';
import { DiagnosticSink, type CompileContext, type Diagnostic } from '../diagnostics/diagnostic';
import { settingsMessage } from '../diagnostics/settings-message';
import { issueCode, issueField, issueMessage, parseForDiagnostics } from '../diagnostics/zod-issues';
import { endpointSettingsSchema, type EndpointSettings } from '../schema/endpoint-settings.schema';
import { functionInputListSchema, type FunctionInput } from '../schema/function-inputs.schema';
import { flowDocumentSchema, type FlowNode } from '../schema/flow-document.schema';
import { referencesOf } from '../template/template-parser';
import type { QueryParamType } from '../schema/inbound-settings.schema';
import { COMPILED_FLOW_FORMAT, type CompiledFlow } from './compiled-flow';
import { checkInboundSettings } from './inbound-check';
import { analyseGraph, type FlowGraph } from './flow-graph';
import { checkReference, type WrittenName } from './reference-check';
import { templateFields } from './template-fields';

export interface CompileInput {
  flow: unknown;
  /** An endpoint's settings (ignored for a function's flow). */
  settings?: EndpointSettings;
  /** Present for a function's flow: it reads `{input.NAME}`, has no request, and every path ends with Return. */
  inputs?: readonly FunctionInput[];
  /** True for a schedule's flow: it reads `{schedule.name}` and `{schedule.time}`, has no request, needs no Respond. */
  schedule?: boolean;
  context?: CompileContext;
}

/** What a flow belongs to: the blocks it may use and how its paths must end follow from it. */
export type FlowKind = 'endpoint' | 'function' | 'schedule';

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

function analyse({ flow, settings, inputs, schedule, context = {} }: CompileInput): { diagnostics: Diagnostic[]; compiled: CompiledFlow | null } {
  const sink = new DiagnosticSink();
  const endpoint: EndpointFacts =
    inputs !== undefined
      ? { method: 'POST', query_params: [], kind: 'function', inputs: checkInputs(inputs, sink) }
      : schedule === true
        ? { method: 'SCHEDULE', query_params: [], kind: 'schedule' }
        : { ...checkSettings(settings as EndpointSettings, sink, context), kind: 'endpoint' };
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
    [...entries.values()].map(({ node, label, registered, config }) => ({
      id: node.id,
      label,
      flow: (registered?.definition.flow ?? 'next') as BlockFlow,
      isStart: node.type === 'start',
      canFail: registered === null || blockCanFail(registered.definition, config),
    })),
    document.data.edges,
    sink,
    endpoint.kind,
  );
  checkBlocks(entries, graph, endpoint, context, sink);
  if (sink.hasErrors() || graph.startId === null) return { diagnostics: sink.items, compiled: null };
  return { diagnostics: sink.items, compiled: buildCompiledFlow(entries, graph, endpoint) };
}

interface EndpointFacts {
  method: string;
  query_params: Array<{ key: string; default: string | null; type?: QueryParamType }>;
  kind: FlowKind;
  inputs?: readonly FunctionInput[];
}

function checkSettings(settings: EndpointSettings, sink: DiagnosticSink, context: CompileContext): Omit<EndpointFacts, 'kind'> {
  const parsed = parseForDiagnostics(endpointSettingsSchema, settings);
  if (parsed.success) {
    checkInboundSettings(parsed.data, context, sink);
    return parsed.data;
  }
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

/** A function's inputs as Save checks them (a name a flow can read, once; a default of its type), each problem at its field. */
function checkInputs(inputs: readonly FunctionInput[], sink: DiagnosticSink): readonly FunctionInput[] {
  const parsed = parseForDiagnostics(functionInputListSchema, inputs);
  if (parsed.success) return inputs;
  for (const issue of parsed.error.issues) {
    const [index, ...rest] = issue.path.map(String);
    const field = ['inputs', ...(index === undefined ? [] : [index, ...rest])].join('.');
    const where = index === undefined ? 'Inputs' : `Input ${Number(index) + 1}${rest.length > 0 ? ` (${rest.join('.')})` : ''}`;
    sink.error(issueCode(issue), null, field, `${where}: ${issue.message}.`);
  }
  return inputs;
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
    written.push(...namesWritten(registered, config, graph.successors.get(node.id)?.onError != null).map((output) => ({ ...output, nodeId: node.id })));
  }
  const paramKeys = new Set(endpoint.query_params.map((param) => param.key));
  const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
  const secretNames = context.secret_names === undefined ? undefined : new Set(context.secret_names);
  const inputNames = endpoint.inputs === undefined ? undefined : new Set(endpoint.inputs.map((input) => input.name));

  for (const { node, label, registered, config } of entries.values()) {
    if (registered === null || config === null) continue;
    const diagnostics = sink.forBlock(node.id, label);
    checkKind(registered, endpoint.kind, diagnostics);
    registered.definition.check?.(config, diagnostics, { method: endpoint.method, context });
    // An unreachable block is already an error; its references have no "before" to check against.
    if (!graph.reachable.has(node.id)) continue;
    const ancestors = graph.ancestorsOf(node.id);
    const loops = graph.loopsOf(node.id);
    // A For Each's item is read in its body, its collected list after it (`BlockOutput.scope`).
    const visible = (name: WrittenName) => ancestors.has(name.nodeId) && (name.scope === undefined || (name.scope === 'body') === loops.includes(name.nodeId));
    const scope = { kind: endpoint.kind, paramKeys, hasBody, secretNames, inputNames, allWritten: written, writtenBefore: written.filter(visible) };
    // A For Each's `collect` is read as each iteration ends: in the body, after any of its blocks.
    const inBody = (name: WrittenName) => name.nodeId === node.id ? name.scope === 'body' : graph.loopsOf(name.nodeId).includes(node.id);
    const collectScope = { ...scope, writtenBefore: [...written.filter(visible), ...written.filter(inBody)] };
    for (const { field, ast } of templateFields(config)) {
      const fieldScope = registered.definition.flow === 'loop' && field.split('.')[0] === 'collect' ? collectScope : scope;
      for (const ref of referencesOf(ast)) checkReference(ref, field, fieldScope, diagnostics);
    }
  }
}

const KIND_WORDS: Record<FlowKind, string> = { endpoint: 'an endpoint', function: 'a function', schedule: 'a schedule' };

/** Respond and Return Error answer a request: not in a function; Return ends a function: not in an endpoint. */
function checkKind(registered: RegisteredBlock, kind: FlowKind, diagnostics: ReturnType<DiagnosticSink['forBlock']>): void {
  const usableIn = registered.definition.usableIn;
  if (usableIn === undefined || usableIn.includes(kind)) return;
  const instead = kind === 'function' ? 'a function ends with Return' : 'Return ends a function';
  diagnostics.error(`not_in_${kind}`, null, `this block cannot be used in ${KIND_WORDS[kind]} (${instead}); remove it.`);
}

/** The names a block writes; with its `error` handle connected, also `{REF.error}`. */
export function namesWritten(registered: RegisteredBlock, config: Record<string, unknown>, errorPath: boolean): BlockOutput[] {
  const outputs = registered.definition.outputs?.(config) ?? [];
  if (!errorPath || outputs.some((output) => output.readableByName && output.fields?.includes('error'))) return outputs;
  const ref = config.ref ?? config.name;
  return typeof ref === 'string' ? [...outputs, { name: ref, fields: ['error'], readableByName: true }] : outputs;
}

function buildCompiledFlow(entries: ReadonlyMap<string, BlockEntry>, graph: FlowGraph, endpoint: EndpointFacts): CompiledFlow {
  const ids = graph.order.filter((id) => id !== graph.startId);
  const index = new Map(ids.map((id, position) => [id, position]));
  const indexOf = (id: string | null): number | null => (id === null ? null : (index.get(id) ?? null));
  return {
    format: COMPILED_FLOW_FORMAT,
    // A string parameter's entry keeps the shape compiled flows had before types.
    query_params: endpoint.query_params.map(({ key, default: fallback, type }) => (type === undefined || type === 'string' ? { key, default: fallback } : { key, default: fallback, type })),
    ...(endpoint.inputs === undefined ? {} : { inputs: endpoint.inputs.map(({ name, type, default: fallback }) => ({ name, type, default: fallback ?? null })) }),
    entry: indexOf(graph.successors.get(graph.startId as string)?.next ?? null),
    blocks: ids.map((id) => {
      const { node, registered, config } = entries.get(id) as BlockEntry;
      const successors = graph.successors.get(id);
      const block: CompiledFlow['blocks'][number] = { id, type: node.type, config: config ?? {}, next: indexOf(successors?.next ?? null) };
      if (registered?.definition.flow === 'branch') block.next_when_false = indexOf(successors?.whenFalse ?? null);
      if (registered?.definition.flow === 'loop') block.body = indexOf(successors?.body ?? null);
      if (successors?.onError != null) block.on_error = indexOf(successors.onError);
      return block;
    }),
  };
}
