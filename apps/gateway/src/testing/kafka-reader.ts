import { requestLogEventSchema, splitRequestLogMessage, type RequestLogEvent } from '@flowgate/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { waitFor } from './wait-for';

export interface ReadEvent {
  key: string | null;
  event: RequestLogEvent;
}

const kafka = () => new Kafka({ clientId: 'gateway-test', brokers: process.env.KAFKA_BROKERS!.split(','), logLevel: logLevel.NOTHING });

export async function createTopic(topic: string, partitions = 3): Promise<void> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

export async function deleteTopic(topic: string): Promise<void> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [topic] });
  } catch {
    // best effort
  } finally {
    await admin.disconnect();
  }
}

/** Reads `topic` from the beginning until `count` events arrived (each checked against the event schema). */
export async function readEvents(topic: string, count: number, timeoutMs = 20_000): Promise<ReadEvent[]> {
  const consumer = kafka().consumer({ groupId: `gateway-test-${randomBytes(6).toString('hex')}` });
  const events: ReadEvent[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        // A message carries one or more events, one per line (see the contract).
        for (const line of splitRequestLogMessage(message.value!.toString())) {
          events.push({ key: message.key?.toString() ?? null, event: requestLogEventSchema.parse(JSON.parse(line)) });
        }
      },
    });
    await waitFor(() => events.length >= count, `${count} events on ${topic} (have ${events.length})`, timeoutMs);
  } finally {
    await consumer.disconnect();
  }
  return events;
}
