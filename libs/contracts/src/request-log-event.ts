import { z } from 'zod';

/**
 * Kafka topic of request-log events; key = project id (keeps a project's events ordered).
 *
 * Message format: the value is UTF-8 NDJSON — one or more `RequestLogEvent` JSON objects,
 * one per line, separated by `\n` (a trailing `\n` is allowed; JSON never holds a raw
 * newline, so the separator is unambiguous). A message with one line is the original
 * single-event form. Gateways pack the events of one project from one send into one message
 * (in order, up to REQUEST_LOG_MESSAGE_MAX_BYTES), which costs the producer and the broker a
 * fraction of one message per event. Consumers validate every line on its own: a malformed
 * line is rejected alone (log-ingest dead-letters just that line), the others are stored;
 * idempotency stays per event id.
 */
export const REQUEST_LOG_TOPIC_DEFAULT = 'flowgate.request-logs';
export const REQUEST_LOG_DLQ_TOPIC_DEFAULT = 'flowgate.request-logs.dlq';
/** Separator of the events in one message. */
export const REQUEST_LOG_EVENT_SEPARATOR = '\n';
/** Bytes of one message's value at most (well below the broker's default 1 MB message limit). */
export const REQUEST_LOG_MESSAGE_MAX_BYTES = 256 * 1024;

/** The event lines of one message value (empty lines skipped), in order. */
export function splitRequestLogMessage(value: string): string[] {
  return value.split(REQUEST_LOG_EVENT_SEPARATOR).filter((line) => line.length > 0);
}

/** Characters of the raw query string an event keeps at most (the rest is cut off). */
export const REQUEST_LOG_QUERY_MAX = 2048;
/** Characters of an error message an event keeps at most. */
export const REQUEST_LOG_MESSAGE_MAX = 1024;

/**
 * One event per request that reached a known project (produced by gateways, v1).
 * `query`, `message`, `error_node_id` and `environment` were added later within v1: an event
 * without them (an older gateway) reads as no query, no message, no failed block, live.
 */
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
  /** The raw query string without `?`, cut to REQUEST_LOG_QUERY_MAX characters; '' when none. */
  query: z.string().max(REQUEST_LOG_QUERY_MAX).default(''),
  /** Error message of a 4xx/5xx answer (cut to REQUEST_LOG_MESSAGE_MAX), null on success. */
  message: z.string().max(REQUEST_LOG_MESSAGE_MAX).nullable().default(null),
  /** The block that failed (a flow error) or the Return Error block that answered, else null. */
  error_node_id: z.string().max(100).nullable().default(null),
  /** ISO 8601 arrival time. */
  time: z.iso.datetime({ offset: true }),
  /**
   * Where the request was served: the live address or the preview address
   * (`{subdomain}--preview.…`). Gateways write it for preview requests only; absent reads as live.
   */
  environment: z.enum(['live', 'preview']).default('live'),
});
export type RequestLogEvent = z.infer<typeof requestLogEventSchema>;
