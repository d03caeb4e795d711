import { z } from 'zod';
import { endpointPathProblem } from './endpoint-path';
import { bodySchemaSchema, cacheSettingsSchema, mcpSettingsSchema, QUERY_PARAM_TYPES, signatureSettingsSchema } from './inbound-settings.schema';
import { PARAM_KEY_PATTERN } from './names';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const MAX_QUERY_PARAMS = 10;

function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

export const queryParamSchema = z.object({
  key: z
    .string()
    // Stops at an empty key: one "must not be empty", not also the character rule.
    // The message is spelled out so the API's refusal of a Save reads like the browser's finding.
    .min(1, { abort: true, error: 'must not be empty' })
    .max(64)
    .regex(PARAM_KEY_PATTERN, { error: 'may contain only letters, digits, _ and -' })
    .meta({ title: 'Key' }),
  default: z.string().max(2000).nullable().default(null).meta({ title: 'Default value' }),
  /** Typed (absent: `string`), `{params.KEY}` holds the typed value; the gateway refuses a value of another type (400). */
  type: z.enum(QUERY_PARAM_TYPES).optional().meta({ title: 'Type' }),
  required: z.boolean().optional().meta({ title: 'Required' }),
  /** The accepted values of an `enum` parameter. */
  values: z.array(z.string().min(1).max(200)).min(1).max(50).optional().meta({ title: 'Values' }),
}).superRefine((param, ctx) => {
  if (param.type === 'enum' && param.values === undefined) ctx.addIssue({ code: 'custom', path: ['values'], message: 'must list the accepted values of an enum parameter' });
  if (param.default !== null && queryValueProblem(param, param.default) !== null) {
    ctx.addIssue({ code: 'custom', path: ['default'], message: `must be a valid ${param.type ?? 'string'}` });
  }
});

export type QueryParam = z.infer<typeof queryParamSchema>;

/** null when `raw` (a query string value) is of the parameter's type; else what is wrong, for the caller. */
export function queryValueProblem(param: Pick<QueryParam, 'type' | 'values'>, raw: string): string | null {
  switch (param.type) {
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? null : 'must be a number';
    case 'integer':
      return /^-?\d{1,15}$/.test(raw) ? null : 'must be an integer';
    case 'boolean':
      return raw === 'true' || raw === 'false' ? null : 'must be true or false';
    case 'enum':
      return param.values?.includes(raw) === true ? null : `must be one of ${(param.values ?? []).join(', ')}`;
    default:
      return null;
  }
}

/** The typed value of a query string value already checked by queryValueProblem. */
export function typedQueryValue(type: QueryParam['type'] | undefined, raw: string): string | number | boolean {
  if (type === 'number' || type === 'integer') return Number(raw);
  if (type === 'boolean') return raw === 'true';
  return raw;
}

/** The Workshop's base settings block: what the gateway routes and authenticates on. */
export const endpointSettingsSchema = z.object({
  name: z.string().trim().min(1).max(100).meta({ title: 'Name' }),
  method: z.enum(HTTP_METHODS).default('GET').meta({ title: 'Method' }),
  path: z
    .string()
    .trim()
    .max(200)
    // "/orders/" and "/orders" are one endpoint.
    .transform(withoutTrailingSlashes)
    .superRefine((path, ctx) => {
      const problem = endpointPathProblem(path);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ title: 'Path' }),
  auth: z.enum(['none', 'user', 'admin']).default('none').meta({ title: 'Authentication' }),
  query_params: z
    .array(queryParamSchema)
    .max(MAX_QUERY_PARAMS)
    .default([])
    .refine((params) => new Set(params.map((param) => param.key)).size === params.length, {
      error: 'must not contain the same key twice',
      params: { code: 'duplicate_query_param' },
    })
    .meta({ title: 'Query parameters', itemTitle: 'Query parameter' }),
  /** POST/PUT/PATCH: the body is checked against it before the flow runs. */
  body_schema: bodySchemaSchema.nullable().optional(),
  /** A webhook sender's signature, checked on the raw body before anything else. */
  signature: signatureSettingsSchema.nullable().optional().meta({ title: 'Webhook signature' }),
  /** GET: answers kept in Redis and shared by every gateway. */
  cache: cacheSettingsSchema.nullable().optional().meta({ title: 'Cache' }),
  /** A tool of the project's MCP server (docs/mcp.md). */
  mcp: mcpSettingsSchema.nullable().optional().meta({ title: 'MCP' }),
});

export type EndpointSettings = z.infer<typeof endpointSettingsSchema>;
export type HttpMethod = (typeof HTTP_METHODS)[number];
