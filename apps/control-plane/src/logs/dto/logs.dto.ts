import { createZodDto } from 'nestjs-zod';
import { requestLogDetailsSchema } from '@flowgate/contracts';
import { z } from 'zod';

/** `?status=` (empty) from a filter form means "no filter". */
export const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** Statuses `min`..`max` (one code: min = max). */
export interface StatusRange {
  min: number;
  max: number;
}

/** `?status=`: a code (`404`) or a class (`4xx`). */
export const statusFilterSchema = z
  .string()
  .trim()
  .regex(/^([1-5]xx|[1-5][0-9]{2})$/i, 'must be a status code such as 404 or a class such as 4xx')
  .transform((value): StatusRange => {
    const hundred = Number(value[0]) * 100;
    return /x/i.test(value) ? { min: hundred, max: hundred + 99 } : { min: Number(value), max: Number(value) };
  });

export const methodFilterSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{1,16}$/, 'must be an HTTP method such as GET');

/** `?environment=`: the live address (default) or the preview address. */
export const environmentFilterSchema = optional(z.enum(['live', 'preview'], { error: 'must be live or preview' })).describe(
  'Where the requests were served: live (default) or preview ({subdomain}--preview)',
);

/** `?trigger=`: what started the runs (any when absent). */
export const triggerFilterSchema = optional(z.enum(['http', 'schedule', 'mcp'], { error: 'must be http, schedule or mcp' })).describe(
  'What started the runs: http (requests), schedule (ticks and Run now) or mcp; any when absent',
);

/** `?cache=`: answers served from the response cache (`hit`) or by the flow of a cached route (`miss`); any when absent. */
export const cacheFilterSchema = optional(z.enum(['hit', 'miss'], { error: 'must be hit or miss' })).describe(
  'Answers of cached routes: hit (served from the response cache) or miss (the flow ran); any when absent',
);

export const logsQuerySchema = z.strictObject({
  environment: environmentFilterSchema,
  trigger: triggerFilterSchema,
  cache: cacheFilterSchema,
  endpoint: optional(z.string().trim().min(1).max(2048)).describe('Endpoint path, e.g. /orders (also matches /api/orders)'),
  status: optional(z.coerce.string().pipe(statusFilterSchema)).describe('HTTP status (500) or class (5xx)'),
  method: optional(methodFilterSchema),
  from: optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with offset' })).describe('Inclusive lower bound'),
  to: optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with offset' })).describe('Exclusive upper bound'),
  limit: optional(z.coerce.number().int('must be a whole number').min(1).max(200, 'must be at most 200')).describe('Default 50'),
  cursor: optional(z.string().max(200)).describe('next_cursor or prev_cursor of a previous page'),
});
export type LogsQuery = z.infer<typeof logsQuerySchema>;
export class LogsQueryDto extends createZodDto(logsQuerySchema) {}

export const logEntrySchema = z.object({
  id: z.uuid(),
  endpoint: z.string().describe('The path requested'),
  time: z.string(),
  method: z.string(),
  status: z.number().int(),
  duration_ms: z.number(),
  key_id: z.uuid().nullable(),
  code: z.string().nullable().describe('Error code of the answer, null on success'),
  environment: z.enum(['live', 'preview']).describe('Served on the live address or the preview address'),
  trigger: z.enum(['http', 'schedule', 'mcp']).describe('What started the run: a request, a schedule, an MCP call'),
  streamed: z.boolean().describe('The answer was a stream (Stream Text); its duration runs to the last byte'),
  cache: z
    .enum(['hit', 'miss'])
    .nullable()
    .describe('A cached route: hit (served from the response cache, the flow did not run) or miss (the flow ran); null for other routes'),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const logPageSchema = z.object({
  items: z.array(logEntrySchema).describe('Newest first'),
  next_cursor: z.string().nullable().describe('Older entries (Next); null on the last page'),
  prev_cursor: z.string().nullable().describe('Newer entries (Back); null on the first page'),
});
export type LogPage = z.infer<typeof logPageSchema>;
export class LogPageDto extends createZodDto(logPageSchema) {}

export const logDetailQuerySchema = z.strictObject({
  time: optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with offset' })).describe(
    "The entry's time, when known (a list entry's `time`): finds it directly",
  ),
});
export class LogDetailQueryDto extends createZodDto(logDetailQuerySchema) {}

/** The stored `RequestLogDetails` as the API gives them: each header as `{name, value}`. */
export const logRequestDetailsSchema = requestLogDetailsSchema.extend({
  headers: z
    .array(z.object({ name: z.string().describe('Lower-cased'), value: z.string().describe('`[redacted]` for credentials and any header carrying the key') }))
    .describe('In the order they came, at most 32 (values cut to 256 characters)'),
});
export type LogRequestDetails = z.infer<typeof logRequestDetailsSchema>;

export const logDetailSchema = logEntrySchema.extend({
  endpoint_id: z.uuid().nullable().describe('The endpoint that answered, null when none matched'),
  key_name: z.string().nullable().describe('Name of the API key used; null without a key or once the key is deleted'),
  query: z.string().describe('The raw query string without `?` (cut to 2 KiB)'),
  error_node_id: z.string().nullable().describe('The block that failed, or the Return Error block that answered'),
  message: z.string().nullable().describe('Error message of a 4xx/5xx answer, null on success'),
  details: logRequestDetailsSchema
    .nullable()
    .describe(
      "The request's headers (credentials and the key redacted, secret values masked), the first 4,096 characters of its body (masked) and the answer's size; null for runs without a request (schedules) and rows of older gateways",
    ),
});
export type LogDetail = z.infer<typeof logDetailSchema>;
export class LogDetailDto extends createZodDto(logDetailSchema) {}
