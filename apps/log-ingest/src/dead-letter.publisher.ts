import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import type { Rejection } from './request-log.decoder';

export interface DeadLetter {
  message: KafkaMessage;
  partition: number;
  rejection: Rejection;
}

/** Header names of a dead-letter record; the value and key are the original message's. */
export const DLQ_HEADERS = {
  reason: 'flowgate-dlq-reason',
  detail: 'flowgate-dlq-detail',
  topic: 'flowgate-dlq-source-topic',
  partition: 'flowgate-dlq-source-partition',
  offset: 'flowgate-dlq-source-offset',
  failedAt: 'flowgate-dlq-failed-at',
} as const;

/**
 * Sends events that can never be stored to the dead-letter topic, unchanged, with the reason
 * in headers, so an operator can inspect, fix and replay them.
 */
export class DeadLetterPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly sourceTopic: string,
  ) {}

  async publish(letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const failedAt = new Date().toISOString();
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: letters.map(({ message, partition, rejection }) => ({
        key: message.key,
        value: message.value,
        headers: {
          ...withoutDlqHeaders(message.headers),
          [DLQ_HEADERS.reason]: rejection.reason,
          [DLQ_HEADERS.detail]: rejection.detail.slice(0, 2000),
          [DLQ_HEADERS.topic]: this.sourceTopic,
          [DLQ_HEADERS.partition]: String(partition),
          [DLQ_HEADERS.offset]: message.offset,
          [DLQ_HEADERS.failedAt]: failedAt,
        },
      })),
    });
  }
}

function withoutDlqHeaders(headers: IHeaders | undefined): IHeaders {
  const kept: IHeaders = {};
  const ours = new Set<string>(Object.values(DLQ_HEADERS));
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!ours.has(name) && value !== undefined) kept[name] = value;
  }
  return kept;
}
