import { requestLogEventSchema, type RequestLogEvent } from '@flowgate/contracts';

/** Why an event cannot be stored; the label of the dead-letter counter. */
export type RejectionReason = 'empty_message' | 'invalid_json' | 'invalid_event' | 'rejected_by_database';

export interface Rejection {
  reason: RejectionReason;
  /** Human-readable detail, sent along in the dead-letter record. */
  detail: string;
}

export type DecodeResult = { ok: true; event: RequestLogEvent } | { ok: false; rejection: Rejection };

/** Parses and validates one Kafka message value against the v1 request-log event schema. */
export function decodeRequestLogEvent(value: Buffer | null): DecodeResult {
  if (value === null || value.length === 0) {
    return { ok: false, rejection: { reason: 'empty_message', detail: 'the message has no value' } };
  }
  let json: unknown;
  try {
    json = JSON.parse(value.toString('utf8'));
  } catch (error) {
    return { ok: false, rejection: { reason: 'invalid_json', detail: (error as Error).message } };
  }
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
