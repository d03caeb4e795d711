import { REQUEST_LOG_EVENT_SEPARATOR, REQUEST_LOG_MESSAGE_MAX_BYTES } from '@flowgate/contracts';

/** A packed message: NDJSON events, for `partition` when the sender chose one. */
export interface PackedMessage {
  value: string;
  partition?: number;
}

/**
 * Packs a batch of events into as few Kafka messages as fit: NDJSON (the format of
 * libs/contracts/src/request-log-event.ts), in their order, a new message whenever one would
 * exceed `maxBytes`, every message for `partition`. Kafka then encodes, stores and acknowledges
 * a message or two per send instead of one per request, and log-ingest decodes as few.
 */
export function packMessages(events: readonly string[], partition?: number, maxBytes: number = REQUEST_LOG_MESSAGE_MAX_BYTES): PackedMessage[] {
  const packed: PackedMessage[] = [];
  let lines: string[] = [];
  let bytes = 0;
  const close = () => packed.push(partition === undefined ? { value: lines.join(REQUEST_LOG_EVENT_SEPARATOR) } : { value: lines.join(REQUEST_LOG_EVENT_SEPARATOR), partition });
  for (const value of events) {
    // JSON text length; non-ASCII paths may take more bytes, hence the margin in maxBytes.
    if (lines.length > 0 && bytes + value.length + 1 > maxBytes) {
      close();
      lines = [];
      bytes = 0;
    }
    lines.push(value);
    bytes += value.length + 1;
  }
  if (lines.length > 0) close();
  return packed;
}
