import { z } from 'zod';

/** Kafka topic of request-log events; key = project id (keeps a project's events ordered). */
export const REQUEST_LOG_TOPIC_DEFAULT = 'flowgate.request-logs';
export const REQUEST_LOG_DLQ_TOPIC_DEFAULT = 'flowgate.request-logs.dlq';

/** One event per request that reached a known project (produced by gateways, v1). */
export const requestLogEventSchema = z.object({
  v: z.literal(1),
  /** UUID; unique, makes ingestion idempotent. */
  id: z.uuid(),
  project_id: z.uuid(),
  endpoint_id: z.uuid().nullable(),
  /** The path requested, without the query string. */
  path: z.string().max(2048),
  method: z.string().max(16),
  status: z.number().int().min(100).max(599),
  /** Error code of the answer (`rate_limited`, …), null on success. */
  code: z.string().max(64).nullable(),
  /** Arrival to last byte, milliseconds (fractional). */
  duration_ms: z.number().nonnegative(),
  key_id: z.uuid().nullable(),
  /** ISO 8601 arrival time. */
  time: z.iso.datetime({ offset: true }),
});
export type RequestLogEvent = z.infer<typeof requestLogEventSchema>;
