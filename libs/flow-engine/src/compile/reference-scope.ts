import type { BlockFlow, BlockOutput } from '../blocks/block-definition';
import { blockRegistry } from '../blocks/registry';
import { DiagnosticSink } from '../diagnostics/diagnostic';
import { endpointSettingsSchema } from '../schema/endpoint-settings.schema';
import { flowDocumentSchema } from '../schema/flow-document.schema';
import type { BodySchema } from '../schema/inbound-settings.schema';
import type { CompileInput } from './compile-flow';
import { analyseGraph } from './flow-graph';

/** A reference the editor may offer at a block: `params.name`, `local.greeting`, `api.body`. */
export interface ReferenceSuggestion {
  /** Without braces. */
  reference: string;
  /** What it holds, for the completion list ("query parameter, default world"). */
  detail: string;
}

const ALWAYS: readonly ReferenceSuggestion[] = [
  { reference: 'request.headers', detail: 'request headers (object, lowercase names)' },
  { reference: 'request.method', detail: 'request method' },
  { reference: 'request.path', detail: 'request path' },
  { reference: 'current_time', detail: 'current time (ISO 8601)' },
  { reference: 'current_date', detail: 'current date' },
  { reference: 'uuid', detail: 'a fresh UUID' },
];

/**
 * The references that deploy accepts in a template of block `nodeId`: the same facts the
 * reference check uses (configured query parameters, a body only for POST/PUT/PATCH, names
 * written by the blocks that run before this one, the project's secrets). Only references that produce no
 * diagnostic at all are offered, so the editor never suggests one that deploy rejects or warns about.
 */
export function referencesAt(
  { flow, settings, inputs, schedule }: Pick<CompileInput, 'flow' | 'settings' | 'inputs' | 'schedule'>,
  nodeId: string,
  secretNames: readonly string[] = [],
): ReferenceSuggestion[] {
  // A function and a schedule have no request: a function's inputs, a schedule's name and tick instead.
  if (inputs !== undefined || schedule === true) {
    const own =
      inputs?.map((input) => ({ reference: `input.${input.name}`, detail: `input (${input.type})` })) ?? [
        { reference: 'schedule.name', detail: "the schedule's name" },
        { reference: 'schedule.time', detail: 'the tick this run is for (ISO 8601)' },
      ];
    return dedupe([...own, ...ALWAYS.filter((item) => !item.reference.startsWith('request.')), ...secretSuggestions(secretNames), ...writtenBefore(flow, nodeId)]);
  }
  const parsedSettings = endpointSettingsSchema.safeParse(settings);
  const raw: { method?: unknown; query_params?: Array<{ key?: unknown; default?: unknown; type?: unknown }> } = parsedSettings.success ? parsedSettings.data : (settings ?? {});
  const method = typeof raw.method === 'string' ? raw.method : 'GET';
  const params = Array.isArray(raw.query_params) ? raw.query_params.filter((param) => typeof param?.key === 'string' && param.key !== '') : [];

  const suggestions: ReferenceSuggestion[] = params.map((param) => {
    const kind = param.type === undefined || param.type === 'string' ? 'query parameter' : `${param.type} query parameter`;
    return { reference: `params.${param.key}`, detail: param.default === null || param.default === undefined ? kind : `${kind}, default "${param.default}"` };
  });
  if (method !== 'GET' && method !== 'DELETE') {
    suggestions.push({ reference: 'body', detail: 'request body (JSON)' }, { reference: 'request.body', detail: 'request body (JSON)' });
    const schema = (raw as { body_schema?: unknown }).body_schema;
    if (schema !== null && typeof schema === 'object') suggestions.push(...bodyFieldsOf(schema as BodySchema, 'body', 0));
  }
  suggestions.push(...ALWAYS);
  suggestions.push(...secretSuggestions(secretNames));
  suggestions.push(...writtenBefore(flow, nodeId));
  return dedupe(suggestions);
}

/** The body schema's fields as `body.a.b` references (lists by their first item), three levels deep. */
function bodyFieldsOf(schema: BodySchema, at: string, depth: number): ReferenceSuggestion[] {
  if (depth >= 3) return [];
  const required = new Set(schema.required ?? []);
  const fields: ReferenceSuggestion[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (!/^[A-Za-z0-9_-]+$/.test(name)) continue;
    const reference = `${at}.${name}`;
    const type = child.type === 'array' ? 'list' : (child.type ?? 'any');
    fields.push({ reference, detail: `body field (${type}${required.has(name) ? ', required' : ''})` });
    fields.push(...bodyFieldsOf(child, reference, depth + 1));
    if (child.items !== undefined) fields.push(...bodyFieldsOf(child.items, `${reference}.0`, depth + 1));
  }
  return fields;
}

const secretSuggestions = (names: readonly string[]): ReferenceSuggestion[] =>
  names.map((name) => ({ reference: `secrets.${name}`, detail: 'secret of the project (value never shown)' }));

function writtenBefore(flow: unknown, nodeId: string): ReferenceSuggestion[] {
  const document = flowDocumentSchema.safeParse(flow);
  if (!document.success) return [];
  const nodes = document.data.nodes;
  const graph = analyseGraph(
    nodes.map((node) => {
      const registered = blockRegistry.get(node.type);
      return { id: node.id, label: registered?.definition.label ?? node.type, flow: (registered?.definition.flow ?? 'next') as BlockFlow, isStart: node.type === 'start' };
    }),
    document.data.edges,
    new DiagnosticSink(),
  );
  // Deploy skips the reference check of a block no request reaches; the editor offers nothing there.
  if (!graph.reachable.has(nodeId)) return [];
  const ancestors = graph.ancestorsOf(nodeId);
  const loops = graph.loopsOf(nodeId);
  const suggestions: ReferenceSuggestion[] = [];
  for (const node of nodes) {
    if (!ancestors.has(node.id)) continue;
    const registered = blockRegistry.get(node.type);
    const parsed = registered?.compileSchema.safeParse(node.config ?? {});
    if (!registered || !parsed?.success) continue;
    const where = `${registered.definition.label} (${node.id})`;
    for (const output of registered.definition.outputs?.(parsed.data) ?? []) {
      // A For Each's item inside its body only, its collected list after it only (as Deploy checks).
      if (output.scope !== undefined && (output.scope === 'body') !== loops.includes(node.id)) continue;
      suggestions.push(...outputReferences(output, node.type, where));
    }
  }
  return suggestions;
}

function outputReferences(output: BlockOutput, type: string, where: string): ReferenceSuggestion[] {
  const fields = output.fields ?? [];
  if (output.readableByName && type !== 'for_each') return fields.map((field) => ({ reference: `${output.name}.${field}`, detail: where }));
  const root = type === 'set_variable' || type === 'for_each' ? `local.${output.name}` : `result.${output.name}`;
  return [{ reference: root, detail: where }, ...fields.map((field) => ({ reference: `${root}.${field}`, detail: where }))];
}

function dedupe(suggestions: ReferenceSuggestion[]): ReferenceSuggestion[] {
  const seen = new Map<string, ReferenceSuggestion>();
  // A later block with the same name overrides the earlier one; keep the latest detail.
  for (const suggestion of suggestions) seen.set(suggestion.reference, suggestion);
  return [...seen.values()];
}
