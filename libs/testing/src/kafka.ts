// Kafka as the gateway and log-ingest use it, for tests and benchmarks: a client, the gateway's
// producer settings, topics of a test's own, and reading back what a gateway wrote.
import { requestLogEventSchema, splitRequestLogMessage, type RequestLogEvent } from '@flowgate/contracts';
import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { randomBytes, randomUUID } from 'node:crypto';
import { waitFor } from './polling';

export interface ReadEvent {
  event: RequestLogEvent;
}

/** A client of the test run's Kafka (KAFKA_BROKERS), quiet and patient with a broker that restarts. */
export function testKafka(brokers: string[] = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), clientId = 'flowgate-test'): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING, retry: { initialRetryTime: 200, retries: 10 } });
}

/** An idempotent producer, as the gateway uses: acks from all in-sync replicas, no duplicates from retries. */
export async function connectProducer(kafka: Kafka): Promise<Producer> {
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  return producer;
}

/** Sends events, one message each, keyed by project id (log-ingest reads no key); resolves once acknowledged. */
export async function sendEvents(producer: Producer, topic: string, events: RequestLogEvent[]): Promise<void> {
  await producer.send({
    topic,
    acks: -1,
    messages: events.map((event) => ({ key: event.project_id, value: JSON.stringify(event) })),
  });
}

/** Sends raw message values (malformed events for the dead-letter tests). */
export async function sendRaw(producer: Producer, topic: string, values: Array<string | null>, key: string = randomUUID()): Promise<void> {
  await producer.send({ topic, acks: -1, messages: values.map((value) => ({ key, value })) });
}

/** Creates the topic with `partitions` partitions (no-op when it exists). */
export async function createTopic(kafka: Kafka, topic: string, partitions = 6): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

/** Deletes a test's topics and their dead-letter topics (names are unique per test). */
export async function deleteTopics(kafka: Kafka, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: topics.flatMap((topic) => [topic, `${topic}.dlq`]) }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}
/** Committed offsets of a group on a topic, summed over partitions (never-committed partitions count 0). */
export async function committedTotal(kafka: Kafka, groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return (entry?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}

/** Messages in a topic (sum of high watermarks minus low). */
export async function topicSize(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  } finally {
    await admin.disconnect();
  }
}

/** Reads `topic` from the beginning until `count` events arrived (each checked against the event schema). */
export async function readEvents(topic: string, count: number, timeoutMs = 20_000): Promise<ReadEvent[]> {
  const consumer = testKafka().consumer({ groupId: `gateway-test-${randomBytes(6).toString('hex')}` });
  const events: ReadEvent[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        // A message carries one or more events, one per line (see the contract).
        for (const line of splitRequestLogMessage(message.value!.toString())) {
          events.push({ event: requestLogEventSchema.parse(JSON.parse(line)) });
        }
      },
    });
    await waitFor(() => events.length >= count, `${count} events on ${topic} (have ${events.length})`, timeoutMs);
  } finally {
    await consumer.disconnect();
  }
  return events;
}
