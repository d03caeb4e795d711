import { requestLogEventSchema, splitRequestLogMessage, type RequestLogEvent } from '@flowgate/contracts';
import { fastCheckRequestLogEvent } from './request-log.fast-check';

/** Why an event cannot be stored; the label of the dead-letter counter. */
export type RejectionReason = 'empty_message' | 'invalid_json' | 'invalid_event' | 'rejected_by_database';

export interface Rejection {
  reason: RejectionReason;
  /** Human-readable detail, sent along in the dead-letter record. */
  detail: string;
}

export type DecodeResult = { ok: true; event: RequestLogEvent } | { ok: false; rejection: Rejection };

const ESCAPED_NUL = '\\u0000';
/** `message` is the one field a flow fills from what its caller sent (a Return Error message). */
const escapeNul = (key: string, field: unknown): unknown => (key === 'message' && typeof field === 'string' ? field.replaceAll('\u0000', '\\u0000') : field);

/** Parses and validates one Kafka message value against the v1 request-log event schema. */
export function decodeRequestLogEvent(value: Buffer | null): DecodeResult {
  if (value === null || value.length === 0) {
    return { ok: false, rejection: { reason: 'empty_message', detail: 'the message has no value' } };
  }
  return decodeRequestLogLine(value.toString('utf8'));
}

/** Parses and validates one event's JSON text. */
function decodeRequestLogLine(text: string): DecodeResult {
  let json: unknown;
  try {
    // PostgreSQL stores no NUL in text: a Return Error message with one used to send the whole
    // event to the dead-letter topic. The message is kept with the NUL written out as `\u0000`
    // (looked for first: a reviver on every event would slow the common case).
    json = text.includes(ESCAPED_NUL) ? JSON.parse(text, escapeNul) : JSON.parse(text);
  } catch (error) {
    return { ok: false, rejection: { reason: 'invalid_json', detail: (error as Error).message } };
  }
  // Well-formed events skip zod (request-log.fast-check.ts); zod decides and explains the rest.
  const event = fastCheckRequestLogEvent(json);
  if (event !== null) return { ok: true, event };
  const parsed = requestLogEventSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || 'event'}: ${issue.message}`)
      .join('; ');
    return { ok: false, rejection: { reason: 'invalid_event', detail } };
  }
  return { ok: true, event: parsed.data };
}

/**
 * One event of a message: decoded, or rejected. `value` is the message's value when the
 * message holds this event alone; for an event of a packed message, `line` is its own text
 * (what a dead letter carries, see eventBytes), turned into bytes only if it is dead-lettered.
 */
export type DecodedLine = DecodeResult & ({ value: Buffer | null; line?: undefined } | { line: string; value?: undefined });

/** The bytes of one event: its own line of a packed message, or the message's value. */
export function eventBytes(decoded: { value?: Buffer | null; line?: string }): Buffer | null {
  return decoded.line === undefined ? (decoded.value ?? null) : Buffer.from(decoded.line, 'utf8');
}

/**
 * Decodes one Kafka message value: NDJSON, one event per line (a single event is a one-line
 * message; see libs/contracts/src/request-log-event.ts). Every line is validated on its own,
 * so a malformed event rejects only itself. An empty value is one `empty_message` rejection.
 */
export function decodeRequestLogMessage(value: Buffer | null): DecodedLine[] {
  if (value === null || value.length === 0) return [{ ...decodeRequestLogEvent(value), value }];
  // Single-event messages (no separator before the last byte) keep their buffer as is.
  const newline = value.indexOf(10);
  if (newline === -1 || newline === value.length - 1) return [{ ...decodeRequestLogEvent(value), value }];
  const lines = splitRequestLogMessage(value.toString('utf8'));
  if (lines.length === 0) return [{ ...decodeRequestLogEvent(null), value }];
  return lines.map((line) => {
    const decoded = decodeRequestLogLine(line) as DecodedLine;
    decoded.line = line;
    return decoded;
  });
}
