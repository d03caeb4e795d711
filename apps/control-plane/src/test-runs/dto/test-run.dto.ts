import { HTTP_METHODS, endpointSettingsSchema, flowDocumentSchema, functionInputListSchema, queryParamSchema } from '@flowgate/flow-engine';
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

/** A function's test run: its flow and inputs (default: the saved draft's) called with `args`. */
export const functionTestRunInputSchema = z.object({
  flow: flowDocumentSchema.optional().describe("The editor's current flow; default: the saved draft"),
  inputs: functionInputListSchema.optional().describe("The editor's inputs; default: the saved draft's"),
  args: z.record(z.string().max(64), z.json()).default({}).describe('One value per input, by name (string values are templates)'),
  send_email: z.boolean().default(false),
});
export type FunctionTestRunInput = z.infer<typeof functionTestRunInputSchema>;
export class FunctionTestRunInputDto extends createZodDto(functionTestRunInputSchema) {}

interface TraceEntryShape {
  node_id: string;
  type: string;
  label: string;
  status: 'ok' | 'skipped' | 'error';
  skipped_reason?: 'integration_not_configured' | 'dry_run';
  branch?: 'true' | 'false';
  output?: unknown;
  truncated?: boolean;
  duration_ms: number;
  error?: { code: string; message: string; status?: number };
  error_path?: boolean;
  error_in_result?: boolean;
  loop_id?: string;
  iteration?: number;
  iterations_not_shown?: number;
  attempts?: Array<{ attempt: number; outcome: string; wait_ms: number }>;
  console?: Array<{ level: 'log' | 'info' | 'warn' | 'error'; text: string }>;
  calls?: TraceEntryShape[];
}

const traceEntrySchema: z.ZodType<TraceEntryShape> = z.object({
  node_id: z.string(),
  type: z.string(),
  label: z.string(),
  status: z.enum(['ok', 'skipped', 'error']),
  skipped_reason: z.enum(['integration_not_configured', 'dry_run']).optional(),
  branch: z.enum(['true', 'false']).optional(),
  output: z.unknown().optional().describe('What the block stored; over 16 KiB of JSON: its first 16 KiB as a string'),
  truncated: z.boolean().optional(),
  duration_ms: z.number(),
  error: z.object({ code: z.string(), message: z.string(), status: z.number().int().optional() }).optional(),
  error_path: z.boolean().optional().describe('The block failed and the flow went on by its error handle'),
  error_in_result: z
    .boolean()
    .optional()
    .describe('The block failed and the flow went on without an error handle: its output holds the reason (`{NAME.error}`)'),
  loop_id: z.string().optional().describe('Inside a loop body: the For Each running it (the innermost)'),
  iteration: z.number().int().optional().describe("Inside a loop body: the element's index, from 0"),
  iterations_not_shown: z.number().int().optional().describe('On a For Each: iterations past the first 20, not traced'),
  attempts: z
    .array(z.object({ attempt: z.number().int(), outcome: z.string(), wait_ms: z.number() }))
    .optional()
    .describe('Each try of a block with retry: its outcome and the wait after it'),
  console: z
    .array(z.object({ level: z.enum(['log', 'info', 'warn', 'error']), text: z.string() }))
    .optional()
    .describe("Run Code's console output, in order (at most 100 lines and 16 KiB, then one line saying what was cut)"),
  get calls() {
    return z.array(traceEntrySchema).optional().describe("A Call Function's entry: the blocks its function ran, in order");
  },
});
export type TraceEntry = TraceEntryShape;

export const testRunResultSchema = z.object({
  response: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.unknown() }),
  duration_ms: z.number(),
  diagnostics: z.array(diagnosticSchema),
  trace: z.array(traceEntrySchema).describe('Executed nodes in order, the start node excluded'),
});
export type TestRunResult = z.infer<typeof testRunResultSchema>;

export class TestRunResultDto extends createZodDto(testRunResultSchema) {}
