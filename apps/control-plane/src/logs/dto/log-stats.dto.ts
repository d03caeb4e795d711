import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { environmentFilterSchema, methodFilterSchema, optional, statusFilterSchema } from './logs.dto';

const time = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with offset' });

export const logStatsQuerySchema = z.strictObject({
  environment: environmentFilterSchema,
  from: optional(time).describe('Inclusive start (default: `to` − 24 hours); taken to the minute'),
  to: optional(time).describe('Exclusive end (default: now); taken up to the next minute'),
  interval: optional(
    z.coerce.number({ error: 'must be a number of seconds' }).int('must be a whole number of seconds').min(60, 'must be at least 60').multipleOf(60, 'must be a multiple of 60'),
  ).describe('Bucket width in seconds (default: the narrowest of 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 4, 6, 12, 24 h or whole days giving at most 128 buckets: a minute for an hour, 15 min for a day)'),
  endpoint: optional(z.string().trim().min(1).max(2048)).describe('Endpoint path, e.g. /orders (also matches /api/orders)'),
  status: optional(z.coerce.string().pipe(statusFilterSchema)).describe('HTTP status (500) or class (5xx)'),
  method: optional(methodFilterSchema),
});
export type LogStatsQuery = z.infer<typeof logStatsQuerySchema>;
export class LogStatsQueryDto extends createZodDto(logStatsQuerySchema) {}

const figures = {
  count: z.number().int(),
  errors: z.number().int().describe('Answers with status ≥ 400'),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
};

export const logStatsSchema = z.object({
  from: z.string().describe('Start of the range counted (to the minute)'),
  to: z.string().describe('End of the range counted (exclusive)'),
  interval: z.number().int().describe('Bucket width in seconds'),
  totals: z.object(figures),
  buckets: z.array(z.object({ time: z.string().describe("The bucket's start (buckets are aligned to multiples of the interval)"), ...figures })),
});
export type LogStats = z.infer<typeof logStatsSchema>;
export class LogStatsDto extends createZodDto(logStatsSchema) {}
