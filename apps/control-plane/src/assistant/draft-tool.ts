import type Anthropic from '@anthropic-ai/sdk';
import { endpointSettingsSchema, typedFlowDocumentSchema } from '@flowgate/flow-engine';
import { z } from 'zod';

export const DRAFT_TOOL_NAME = 'propose_endpoint';

/** The tool's input, in zod: the same schemas Save and the Workshop use, nothing per block. */
export const draftToolInputSchema = z.object({
  explanation: z.string().describe('For the person who asked: what the endpoint does, block by block, and anything they must still do (a secret to create, a table to add)'),
  settings: endpointSettingsSchema.describe('The endpoint settings: name, method, path, authentication, query parameters'),
  flow: typedFlowDocumentSchema('endpoint').describe('The flow: exactly one Start block, connected to the blocks that follow it'),
});

/** JSON Schema words a model's tool definition understands; the engine's editor tags (`template`, `shownWhen`, …) are not among them. */
const KEYWORDS = new Set([
  'type', 'properties', 'required', 'items', 'prefixItems', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'not', '$ref', '$defs',
  'default', 'title', 'description', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength',
  'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'additionalProperties', 'propertyNames',
]);
const SCHEMA_MAPS = new Set(['properties', '$defs']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const TEMPLATE_NOTE = 'A template: {references} such as {params.name} or {local.total} are replaced when the flow runs.';

type JsonSchema = Record<string, unknown>;

/** The schema with the editor's tags dropped; a template field says so in its description. */
function standardOnly(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const source = schema as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (!KEYWORDS.has(key)) continue;
    if (SCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([name, inner]) => [name, standardOnly(inner)]));
    else if (SCHEMA_LISTS.has(key)) out[key] = (value as unknown[]).map(standardOnly);
    else if (key === 'items' || key === 'additionalProperties' || key === 'propertyNames' || key === 'not') out[key] = standardOnly(value);
    else out[key] = value;
  }
  if (source.template === true) out.description = [out.description, TEMPLATE_NOTE].filter(Boolean).join(' ');
  return out;
}

let built: Anthropic.Messages.Tool | undefined;

/** The one tool the model is given: its input schema is derived from the engine's schemas and the block catalogue. */
export function draftTool(): Anthropic.Messages.Tool {
  built ??= {
    name: DRAFT_TOOL_NAME,
    description: 'Propose the endpoint: its settings and its complete flow. Flowgate validates the proposal as Save does and answers the problems it finds.',
    input_schema: standardOnly(z.toJSONSchema(draftToolInputSchema, { io: 'input', unrepresentable: 'any' })) as Anthropic.Messages.Tool.InputSchema,
  };
  return built;
}
