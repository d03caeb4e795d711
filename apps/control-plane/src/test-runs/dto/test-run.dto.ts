import { HTTP_METHODS, endpointSettingsSchema, flowDocumentSchema, queryParamSchema } from '@flowgate/flow-engine';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { diagnosticSchema } from '../../endpoints/dto/endpoint.dto';

const withLeadingSlash = (value: unknown): unknown =>
  typeof value === 'string' && !value.trim().startsWith('/') ? `/${value.trim()}` : value;

/** A header name as HTTP allows it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Settings given replace the saved ones one by one (no defaults here: an absent field keeps the draft's). */
const settingsOverrideSchema = z.object({
  name: endpointSettingsSchema.shape.name.optional(),
  method: z.enum(HTTP_METHODS).optional(),
  path: z.preprocess(withLeadingSlash, endpointSettingsSchema.shape.path).optional(),
  auth: z.enum(['none', 'user', 'admin']).optional(),
  query_params: z.array(queryParamSchema).max(10).optional(),
});

export const testRunInputSchema = z.object({
  flow: flowDocumentSchema.optional().describe("The editor's current flow; default: the saved draft"),
  settings: settingsOverrideSchema.optional().describe('Base settings replacing the saved ones field by field'),
  request: z
    .object({
      method: z.enum(HTTP_METHODS).optional().describe("Default: the endpoint's method"),
      path: z.string().max(2048).optional().describe("As a caller would send it (`/orders` or `/api/orders`); default: the endpoint's path"),
      query: z.record(z.string().max(256), z.string().max(2048)).optional(),
      headers: z
        .record(z.string().max(256).regex(HEADER_NAME, { error: 'must be a valid HTTP header name' }), z.string().max(8192))
        .refine((headers) => Object.keys(headers).length <= 100, { error: 'must have at most 100 headers' })
        .optional(),
      body: z.unknown().optional().describe('JSON body (POST, PUT, PATCH)'),
    })
    .default({}),
  send_email: z.boolean().default(false).describe('Queue Send Email messages for real (default: shown in the trace only)'),
});
export type TestRunInput = z.infer<typeof testRunInputSchema>;

export class TestRunInputDto extends createZodDto(testRunInputSchema) {}

const traceEntrySchema = z.object({
  node_id: z.string(),
  type: z.string(),
  label: z.string(),
  status: z.enum(['ok', 'skipped', 'error']),
  skipped_reason: z.enum(['integration_not_configured', 'dry_run']).optional(),
  branch: z.enum(['true', 'false']).optional(),
  output: z.unknown().optional().describe('What the block stored; over 16 KiB of JSON: its first 16 KiB as a string'),
  truncated: z.boolean().optional(),
  duration_ms: z.number(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type TraceEntry = z.infer<typeof traceEntrySchema>;

export const testRunResultSchema = z.object({
  response: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.unknown() }),
  duration_ms: z.number(),
  diagnostics: z.array(diagnosticSchema),
  trace: z.array(traceEntrySchema).describe('Executed nodes in order, the start node excluded'),
});
export type TestRunResult = z.infer<typeof testRunResultSchema>;

export class TestRunResultDto extends createZodDto(testRunResultSchema) {}
