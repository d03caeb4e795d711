import { endpointSettingsSchema, flowDocumentSchema, SIGNATURE_SCHEMES } from '@flowgate/flow-engine';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** A draft starts with the Start block alone. */
export const EMPTY_FLOW = { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] };

/** `orders` and `/orders/` both mean `/orders`; the engine's settings schema checks the rest (reserved segments, characters). */
const withLeadingSlash = (value: unknown): unknown =>
  typeof value === 'string' && !value.trim().startsWith('/') ? `/${value.trim()}` : value;

/** The endpoint as the Workshop saves it: base settings (name, method, path, auth, query parameters) and the flow. */
export const endpointInputSchema = endpointSettingsSchema.extend({
  path: z.preprocess(withLeadingSlash, endpointSettingsSchema.shape.path),
  flow: flowDocumentSchema.default(EMPTY_FLOW),
});
export type EndpointInput = z.infer<typeof endpointInputSchema>;

export class SaveEndpointDto extends createZodDto(endpointInputSchema) {}

export const diagnosticSchema = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  node_id: z.string().nullable(),
  field: z.string().nullable(),
  message: z.string(),
  line: z.number().int().optional().describe("Where in a code field (Run Code's `code`) the problem is: 1-based line"),
  column: z.number().int().optional().describe('1-based column, with `line`'),
});

const queryParamOut = z.object({
  key: z.string(),
  default: z.string().nullable(),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'enum']).optional(),
  required: z.boolean().optional(),
  values: z.array(z.string()).optional(),
});

/** The settings around the flow (docs/inbound.md), null when not set. */
export const endpointOptionsOut = {
  body_schema: z.object({}).loose().nullable().describe('JSON Schema subset the body is checked against before the flow runs'),
  signature: z
    .object({ scheme: z.enum(SIGNATURE_SCHEMES), secret: z.string(), header: z.string().optional(), tolerance_s: z.number() })
    .nullable()
    .describe('Webhook signature checked on the raw body before anything else'),
  cache: z
    .object({ ttl_s: z.number(), vary_query: z.boolean(), vary_headers: z.array(z.string()), per_key: z.boolean() })
    .nullable()
    .describe('GET answers cached in Redis, shared by every gateway'),
  mcp: z.object({ enabled: z.boolean(), description: z.string().optional() }).nullable().describe("A tool of the project's MCP server at /_mcp"),
};

/** Settings and flow, as drafts and versions show them. */
const contentSchema = z.object({
  name: z.string(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string(),
  auth: z.enum(['none', 'user', 'admin']),
  query_params: z.array(queryParamOut),
  ...endpointOptionsOut,
  flow: z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }).loose(),
});

export const endpointSchema = contentSchema.extend({
  id: z.uuid(),
  project_id: z.uuid(),
  status: z.enum(['draft', 'live']),
  live_version: z.number().int().nullable(),
  live_url: z.string().nullable().describe("The live version's address (base_url + its path), null when not deployed"),
  preview_url: z
    .string()
    .describe("The saved draft's address on the preview address (any API key of the project); served while the draft has no error diagnostics"),
  has_undeployed_changes: z.boolean().describe('True when the draft differs from what is live (or nothing is live)'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EndpointView = z.infer<typeof endpointSchema>;

export const versionSchema = contentSchema.extend({
  version: z.number().int(),
  live: z.boolean(),
  created_at: z.string(),
});
export type VersionView = z.infer<typeof versionSchema>;

export class EndpointDto extends createZodDto(endpointSchema) {}
export class EndpointListDto extends createZodDto(z.object({ items: z.array(endpointSchema) })) {}
export class EndpointWithDiagnosticsDto extends createZodDto(
  endpointSchema.extend({
    diagnostics: z.array(diagnosticSchema).describe('Validation findings of the flow; warnings never block Save or Deploy'),
  }),
) {}
export class VersionListDto extends createZodDto(z.object({ items: z.array(versionSchema) })) {}
export class VersionDto extends createZodDto(versionSchema) {}
