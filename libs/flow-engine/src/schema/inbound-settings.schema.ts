import { z } from 'zod';
import { compilePattern } from '../blocks/match_regex/linear-regex';
import { FORBIDDEN_SEGMENTS } from '../template/path-lookup';

/**
 * What an endpoint checks before its flow runs: typed query parameters, a body schema, a
 * webhook signature; and how a GET answer is cached. The gateway enforces them; the engine
 * only defines and validates them (pure).
 */

export const QUERY_PARAM_TYPES = ['string', 'number', 'integer', 'boolean', 'enum'] as const;
export type QueryParamType = (typeof QUERY_PARAM_TYPES)[number];

export const MAX_BODY_SCHEMA_BYTES = 32 * 1024;
export const MAX_BODY_SCHEMA_DEPTH = 8;
const BODY_SCHEMA_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;

/** The JSON Schema subset a body may be described with (draft 2020-12 keywords, nothing else). */
// A type alias (not an interface) so that it is assignable where any JSON object is expected.
export type BodySchema = {
  type?: (typeof BODY_SCHEMA_TYPES)[number];
  description?: string;
  properties?: Record<string, BodySchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: BodySchema;
  enum?: Array<string | number | boolean | null>;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

const propertyName = z
  .string()
  .min(1)
  .max(100)
  .refine((name) => !FORBIDDEN_SEGMENTS.has(name), { error: 'may not be __proto__, constructor or prototype' });

/** A pattern runs on every request: refused when RE2 cannot run it or its program is too large (as Match Regex). */
const boundedPattern = z
  .string()
  .max(1000)
  .superRefine((pattern, ctx) => {
    const compiled = compilePattern(pattern, 'u');
    if (!compiled.ok) ctx.addIssue({ code: 'custom', message: `is not a usable pattern: ${compiled.reason}` });
  });

const count = z.number().int().min(0).max(1_000_000);

export const bodySchemaNodeSchema: z.ZodType<BodySchema> = z.strictObject({
  type: z.enum(BODY_SCHEMA_TYPES).optional(),
  description: z.string().max(1000).optional(),
  get properties() {
    return z.record(propertyName, bodySchemaNodeSchema).optional();
  },
  required: z.array(propertyName).max(200).optional(),
  additionalProperties: z.boolean().optional(),
  get items() {
    return bodySchemaNodeSchema.optional();
  },
  enum: z
    .array(z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
    .min(1)
    .max(200)
    .optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  minLength: count.optional(),
  maxLength: count.optional(),
  pattern: boundedPattern.optional(),
});

function depthOf(node: BodySchema): number {
  let deepest = 0;
  for (const child of Object.values(node.properties ?? {})) deepest = Math.max(deepest, depthOf(child));
  if (node.items !== undefined) deepest = Math.max(deepest, depthOf(node.items));
  return deepest + 1;
}

/** Checked for size and depth before its shape (a 10 MB schema is not walked). */
export const bodySchemaSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    const size = new TextEncoder().encode(JSON.stringify(value) ?? '').length;
    if (size > MAX_BODY_SCHEMA_BYTES) ctx.addIssue({ code: 'custom', message: `is ${size} bytes; the limit is ${MAX_BODY_SCHEMA_BYTES}`, abort: true });
  })
  .pipe(bodySchemaNodeSchema)
  .superRefine((schema, ctx) => {
    if (depthOf(schema) > MAX_BODY_SCHEMA_DEPTH) ctx.addIssue({ code: 'custom', message: `nests deeper than ${MAX_BODY_SCHEMA_DEPTH} levels` });
  })
  .meta({ title: 'Body schema' });

export const SIGNATURE_SCHEMES = ['stripe', 'github', 'slack', 'standard_webhooks', 'hmac_sha256'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** Header names as HTTP allows them (a token), lower-cased when used. */
const headerName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'is not a header name' });

export const signatureSettingsSchema = z
  .strictObject({
    scheme: z.enum(SIGNATURE_SCHEMES).meta({ title: 'Signature scheme' }),
    secret: z.string().min(1).max(100).meta({ title: 'Signing secret' }),
    header: headerName.optional().meta({ title: 'Signature header' }),
    tolerance_s: z.number().int().min(1).max(86_400).default(300).meta({ title: 'Tolerance (s)' }),
  })
  .refine((signature) => signature.scheme !== 'hmac_sha256' || signature.header !== undefined, {
    error: 'needs a header naming where the signature is sent',
    path: ['header'],
  });
export type SignatureSettings = z.infer<typeof signatureSettingsSchema>;

/** The endpoint as a tool of the project's MCP server (`/_mcp`): off unless enabled. */
export const mcpSettingsSchema = z.strictObject({
  enabled: z.boolean().meta({ title: 'Expose as MCP tool' }),
  description: z.string().max(1000).optional().meta({ title: 'Tool description' }),
});
export type McpSettings = z.infer<typeof mcpSettingsSchema>;

export const MAX_CACHE_TTL_S = 86_400;
export const cacheSettingsSchema = z.strictObject({
  ttl_s: z.number().int().min(1).max(MAX_CACHE_TTL_S).meta({ title: 'Time to live (s)' }),
  vary_query: z.boolean().default(true),
  vary_headers: z.array(headerName).max(5).default([]).meta({ title: 'Vary by headers' }),
  per_key: z.boolean().default(false).meta({ title: 'One cache per key' }),
});
export type CacheSettings = z.infer<typeof cacheSettingsSchema>;
