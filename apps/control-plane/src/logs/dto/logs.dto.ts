import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** `?status=` (empty) from a filter form means "no filter". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const logsQuerySchema = z.object({
  endpoint: optional(z.string().trim().min(1).max(2048)).describe('Endpoint path, e.g. /orders (also matches /api/orders)'),
  status: optional(z.coerce.number().int('must be a whole number').min(100).max(599)).describe('HTTP status, e.g. 500'),
  method: optional(
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{1,16}$/, 'must be an HTTP method such as GET'),
  ),
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
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const logPageSchema = z.object({
  items: z.array(logEntrySchema).describe('Newest first'),
  next_cursor: z.string().nullable().describe('Older entries (Next); null on the last page'),
  prev_cursor: z.string().nullable().describe('Newer entries (Back); null on the first page'),
});
export type LogPage = z.infer<typeof logPageSchema>;
export class LogPageDto extends createZodDto(logPageSchema) {}
