// Helpers shared by the log-ingest integration tests, the fault drills and the benchmark:
// events shaped exactly as a gateway produces them, sent the way a gateway sends them.
import { randomUUID } from 'node:crypto';
import type { RequestLogEvent } from '@flowgate/contracts';
import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import type { Pool } from 'pg';

export const uniqueName = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

export function makeEvent(overrides: Partial<RequestLogEvent> = {}): RequestLogEvent {
  return {
    v: 1,
    environment: 'live',
    id: randomUUID(),
    project_id: randomUUID(),
    endpoint_id: randomUUID(),
    path: '/orders',
    method: 'GET',
    status: 200,
    code: null,
    duration_ms: 3.5,
    key_id: null,
    query: '',
    message: null,
    error_node_id: null,
    time: new Date().toISOString(),
    ...overrides,
  };
}

export function testKafka(brokers: string[], clientId = 'flowgate-test'): Kafka {
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

/** Sends events keyed by project id (the gateway's partitioning); resolves once acknowledged. */
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

/** Polls `probe` until it returns a value that `done` accepts; throws with the last value after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 30000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Stored rows of a project, and how many distinct event ids they hold. */
export async function countStored(pool: Pool, projectId: string): Promise<{ rows: number; distinct: number }> {
  const { rows } = await pool.query<{ rows: string; distinct: string }>(
    'SELECT count(*) AS rows, count(DISTINCT id) AS distinct FROM request_logs WHERE project_id = $1',
    [projectId],
  );
  return { rows: Number(rows[0].rows), distinct: Number(rows[0].distinct) };
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

/** An account with one project and `keys` API keys, written as the control plane would. */
export async function createProjectWithKeys(pool: Pool, keys: number): Promise<{ accountId: string; projectId: string; keyIds: string[] }> {
  const accountId = randomUUID();
  const projectId = randomUUID();
  const keyIds = Array.from({ length: keys }, () => randomUUID());
  await pool.query('INSERT INTO accounts (id, email, password_hash, updated_at) VALUES ($1, $2, $3, now())', [
    accountId,
    `${accountId}@log-ingest.test`,
    'not-a-real-hash',
  ]);
  await pool.query('INSERT INTO projects (id, account_id, name, subdomain, updated_at) VALUES ($1, $2, $3, $4, now())', [
    projectId,
    accountId,
    'log-ingest test',
    `li-${projectId.slice(0, 8)}`,
  ]);
  for (const keyId of keyIds) {
    await pool.query(
      'INSERT INTO api_keys (id, project_id, name, key_hash, display_prefix) VALUES ($1, $2, $3, $4, $5)',
      [keyId, projectId, 'test key', keyId.replaceAll('-', '').padEnd(64, '0'), 'fg_test'],
    );
  }
  return { accountId, projectId, keyIds };
}

/** Removes what createProjectWithKeys wrote (keys and project cascade) and the project's log rows. */
export async function deleteProject(pool: Pool, ids: { accountId: string; projectId: string }): Promise<void> {
  await pool.query('DELETE FROM request_logs WHERE project_id = $1', [ids.projectId]);
  await pool.query('DELETE FROM accounts WHERE id = $1', [ids.accountId]);
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
