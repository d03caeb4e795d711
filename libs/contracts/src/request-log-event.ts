import { z } from 'zod';

/**
 * Kafka topic of request-log events. Messages carry no key: a gateway sends each batch to one
 * partition, the same for a few seconds, so a partition holds every project's events and a
 * project's events may be read in another order than they were sent.
 *
 * Message format: the value is UTF-8 NDJSON — one or more `RequestLogEvent` JSON objects,
 * one per line, separated by `\n` (a trailing `\n` is allowed; JSON never holds a raw
 * newline, so the separator is unambiguous). A message with one line is the original
 * single-event form. Gateways pack the events of one send into as few messages as fit (in order,
 * up to REQUEST_LOG_MESSAGE_MAX_BYTES each), which costs the producer, the broker and consumers a
 * fraction of one message per event. A message may hold several projects' events. Consumers validate every line on its own: a malformed
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

/** Request headers a log row keeps at most (in the order they came; the rest are left out). */
export const REQUEST_LOG_HEADERS_MAX = 32;
/** Characters of a header's name a log row keeps at most. */
export const REQUEST_LOG_HEADER_NAME_MAX = 64;
/** Characters of a header's value a log row keeps at most (a longer value is cut and ends with `…`). */
export const REQUEST_LOG_HEADER_VALUE_MAX = 256;
/** Characters of the request body a log row keeps at most: a prefix, `body_truncated` marks the cut. */
export const REQUEST_LOG_BODY_MAX = 4096;
/** Characters of an event's `details` JSON text at most (the bounds above give at most ~45,000). */
export const REQUEST_LOG_DETAILS_MAX = 64 * 1024;
/** What stands for a header value that must never be logged (a key, a cookie). */
export const REQUEST_LOG_REDACTED = '[redacted]';

/**
 * What the Logs page's details show of a request beyond its line: the request's headers (names
 * lower-cased, in order; `Authorization`, `Proxy-Authorization`, `Cookie`, `X-API-Key` and any
 * header carrying the presented key read `[redacted]`; the project's secret values masked as in
 * error messages), a prefix of its body as text (masked likewise; null when the body was not read
 * or is not text) and the answer's size in bytes (null when unknown).
 */
export const requestLogDetailsSchema = z.object({
  headers: z
    .array(z.tuple([z.string().max(REQUEST_LOG_HEADER_NAME_MAX), z.string().max(REQUEST_LOG_HEADER_VALUE_MAX)]))
    .max(REQUEST_LOG_HEADERS_MAX),
  /** The first REQUEST_LOG_BODY_MAX characters of a text body (JSON, form, text, XML). */
  body: z.string().max(REQUEST_LOG_BODY_MAX).nullable(),
  /** Bytes of the whole body as received; null when it was not read (a GET, a refusal before it). */
  body_bytes: z.number().int().nonnegative().nullable(),
  /** The body was longer than what `body` holds. */
  body_truncated: z.boolean(),
  /** Bytes of the answer's body; null when unknown (the caller left before it). */
  response_bytes: z.number().int().nonnegative().nullable(),
});
export type RequestLogDetails = z.infer<typeof requestLogDetailsSchema>;

/**
 * One event per request that reached a known project (produced by gateways, v1).
 * `query`, `message`, `error_node_id`, `environment`, `trigger`, `streamed`, `cache` and
 * `details` were added later within v1: an event without them (an older gateway) reads as no
 * query, no message, no failed block, live, http, not streamed, no cache, no details.
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
  /**
   * What started the run: a request (`http`), a schedule's tick or Run now (`schedule`, method
   * `SCHEDULE`, path the schedule's name), an MCP tool call (`mcp`). Absent reads as `http`.
   */
  trigger: z.enum(['http', 'schedule', 'mcp']).default('http'),
  /**
   * True when the answer was a stream (Stream Text's Server-Sent Events): `duration_ms` then runs
   * to the stream's last byte. Gateways write it for streamed answers only; absent reads as false.
   */
  streamed: z.boolean().optional(),
  /**
   * The route caches its answers (docs/inbound.md): `hit` when the kept answer was served without
   * running the flow, `miss` when the flow ran. Gateways write it for cached routes only.
   */
  cache: z.enum(['hit', 'miss']).optional(),
  /**
   * Headers, body prefix and the answer's size: the JSON text of a `RequestLogDetails`, carried
   * as text so that log-ingest stores it as it came (PostgreSQL checks that it is JSON; readers
   * check its shape). Absent reads as null (a schedule's run has none).
   */
  details: z.string().max(REQUEST_LOG_DETAILS_MAX).nullable().default(null),
});
export type RequestLogEvent = z.infer<typeof requestLogEventSchema>;
