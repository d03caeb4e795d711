import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaMessage, Producer } from 'kafkajs';
import { Pool } from 'pg';
import { loadLogIngestConfig, type LogIngestConfig } from './config';
import { DLQ_HEADERS } from './dead-letter.publisher';
import { createLogIngest, type LogIngest } from './log-ingest';
import { committedTotal, connectProducer, countStored, createProjectWithKeys, deleteProject, deleteTopics, makeEvent, sendEvents, sendRaw, testKafka, topicSize, uniqueName, waitUntil } from '@flowgate/testing';

jest.setTimeout(90000);

function configFor(name: string, overrides: NodeJS.ProcessEnv = {}): LogIngestConfig {
  return loadLogIngestConfig({
    ...process.env,
    KAFKA_LOG_TOPIC: name,
    KAFKA_LOG_DLQ_TOPIC: `${name}.dlq`,
    LOG_INGEST_GROUP: name,
    LOG_INGEST_RETRY_MAX_MS: '500',
    ...overrides,
  });
}

async function metricValue(ingest: LogIngest, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await ingest.metrics.getSingleMetric(name)?.get();
  const match = metric?.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
  return match?.value ?? 0;
}

async function lagTotal(ingest: LogIngest): Promise<number> {
  const metric = await ingest.metrics.getSingleMetric('flowgate_log_ingest_consumer_lag')?.get();
  return (metric?.values ?? []).reduce((sum, v) => sum + v.value, 0);
}

async function readTopic(kafka: Kafka, topic: string, count: number): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: uniqueName('li-dlq-reader') });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void messages.push(message) });
    await waitUntil(async () => messages.length, (n) => n >= count, `${count} messages on ${topic}`);
    return messages;
  } finally {
    await consumer.disconnect();
  }
}

describe('log-ingest (Kafka → PostgreSQL)', () => {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  const kafka = testKafka(loadLogIngestConfig().kafkaBrokers);
  const topic = uniqueName('li-test');
  const stopTopic = uniqueName('li-stop');
  const config = configFor(topic);
  let ingest: LogIngest;
  let producer: Producer;
  let project: Awaited<ReturnType<typeof createProjectWithKeys>>;

  beforeAll(async () => {
    project = await createProjectWithKeys(pool, 3);
    ingest = createLogIngest(config);
    await ingest.start(); // creates the topics
    producer = await connectProducer(kafka);
  });

  afterAll(async () => {
    await producer?.disconnect();
    await ingest?.stop();
    if (project) await deleteProject(pool, project);
    await pool.end();
    await deleteTopics(kafka, [topic, stopTopic]);
  });

  it('stores every event once, even when the same event arrives twice', async () => {
    const projectId = project.projectId;
    const events = Array.from({ length: 50 }, () => makeEvent({ project_id: projectId }));
    await sendEvents(producer, topic, events);
    await sendEvents(producer, topic, [events[0], events[1]]); // redelivered, as after a gateway retry
    await waitUntil(() => countStored(pool, projectId), (c) => c.rows >= 50, '50 rows');
    // A later duplicate, after the first copy is certainly stored.
    await sendEvents(producer, topic, [events[2]]);
    const marker = makeEvent({ project_id: projectId });
    await sendEvents(producer, topic, [marker]);
    await waitUntil(() => countStored(pool, projectId), (c) => c.rows >= 51, 'the marker row');

    expect(await countStored(pool, projectId)).toEqual({ rows: 51, distinct: 51 });
    const { rows } = await pool.query('SELECT id, path, method, status, code, duration_ms, key_id, endpoint_id FROM request_logs WHERE id = $1', [
      events[3].id,
    ]);
    expect(rows).toEqual([
      { id: events[3].id, path: '/orders', method: 'GET', status: 200, code: null, duration_ms: 3.5, key_id: null, endpoint_id: events[3].endpoint_id },
    ]);
    expect(await metricValue(ingest, 'flowgate_log_ingest_duplicates_skipped_total')).toBeGreaterThanOrEqual(3);
  });

  it('stores an error message with a NUL character (written out as \\u0000) instead of dead-lettering the event', async () => {
    const projectId = project.projectId;
    // A Return Error message `{body.m}` with {"m":"a\u0000b"}: the flow's caller chose it.
    const event = makeEvent({ project_id: projectId, status: 400, code: 'bad_input', message: 'a\u0000b', error_node_id: 'n1' });
    await sendEvents(producer, topic, [event]);
    await waitUntil(async () => (await pool.query('SELECT 1 FROM request_logs WHERE id = $1', [event.id])).rowCount, (n) => n === 1, 'the row');
    const { rows } = await pool.query('SELECT message, error_node_id FROM request_logs WHERE id = $1', [event.id]);
    expect(rows[0]).toEqual({ message: 'a\\u0000b', error_node_id: 'n1' });
  });

  it('sends malformed events to the dead-letter topic with the reason, counts them and keeps consuming', async () => {
    const projectId = project.projectId;
    const good = makeEvent({ project_id: projectId });
    const badSchema = JSON.stringify({ ...makeEvent({ project_id: projectId }), status: 'teapot' });
    const before = await metricValue(ingest, 'flowgate_log_ingest_dead_lettered_total', { reason: 'invalid_json' });
    await sendRaw(producer, topic, ['{"v":1,"id":', badSchema, null], projectId);
    // PostgreSQL refuses a NUL character in text: isolated from its batch and dead-lettered.
    const nul = makeEvent({ project_id: projectId, path: '/a\u0000b' });
    const after = makeEvent({ project_id: projectId });
    await sendEvents(producer, topic, [good, nul, after]);

    const letters = await readTopic(kafka, `${topic}.dlq`, 4);
    const reasons = letters.map((m) => m.headers?.[DLQ_HEADERS.reason]?.toString()).sort();
    expect(reasons).toEqual(['empty_message', 'invalid_event', 'invalid_json', 'rejected_by_database']);
    const schemaLetter = letters.find((m) => m.headers?.[DLQ_HEADERS.reason]?.toString() === 'invalid_event');
    expect(schemaLetter?.value?.toString()).toBe(badSchema);
    expect(schemaLetter?.headers?.[DLQ_HEADERS.detail]?.toString()).toContain('status');
    expect(schemaLetter?.headers?.[DLQ_HEADERS.topic]?.toString()).toBe(topic);

    const stored = await pool.query('SELECT id FROM request_logs WHERE id = ANY($1::uuid[])', [[good.id, nul.id, after.id]]);
    expect(stored.rows.map((r) => r.id).sort()).toEqual([good.id, after.id].sort());
    await waitUntil(
      () => metricValue(ingest, 'flowgate_log_ingest_dead_lettered_total', { reason: 'invalid_json' }),
      (n) => n === before + 1,
      'the dead-letter counter',
    );
    expect(await metricValue(ingest, 'flowgate_log_ingest_dead_lettered_total', { reason: 'rejected_by_database' })).toBe(1);
  });

  it('stores details as the gateway wrote them, and dead-letters an event whose details are not JSON alone', async () => {
    const projectId = project.projectId;
    const text = '{"headers":[["host","shop.example"]],"body":"{\\"a\\":1}","body_bytes":7,"body_truncated":false,"response_bytes":2}';
    const kept = makeEvent({ project_id: projectId, details: text, cache: 'hit' });
    const broken = makeEvent({ project_id: projectId, details: '{"headers":[' });
    const rejectedBefore = await metricValue(ingest, 'flowgate_log_ingest_dead_lettered_total', { reason: 'rejected_by_database' });
    await sendEvents(producer, topic, [kept, broken]);
    await waitUntil(
      () => metricValue(ingest, 'flowgate_log_ingest_dead_lettered_total', { reason: 'rejected_by_database' }),
      (n) => n === rejectedBefore + 1,
      'the event with broken details dead-lettered',
    );
    const { rows } = await pool.query('SELECT id, details::text AS details, cache FROM request_logs WHERE id = ANY($1::uuid[])', [[kept.id, broken.id]]);
    expect(rows).toEqual([{ id: kept.id, details: text, cache: 'hit' }]);
  });

  it('moves api_keys.last_used_at to the latest use and never backwards; unknown keys are ignored', async () => {
    const [keyA, keyB, deletedKey] = project.keyIds;
    await pool.query('DELETE FROM api_keys WHERE id = $1', [deletedKey]);
    const lastUsed = async (keyId: string) =>
      (await pool.query<{ t: Date | null }>('SELECT last_used_at AS t FROM api_keys WHERE id = $1', [keyId])).rows[0].t;
    const t = (iso: string) => makeEvent({ project_id: project.projectId, key_id: keyA, time: iso });

    // Within one batch the latest wins, whatever the order.
    await sendEvents(producer, topic, [
      t('2026-11-20T10:00:02.000Z'),
      t('2026-11-20T10:00:05.000Z'),
      t('2026-11-20T10:00:01.000Z'),
      makeEvent({ project_id: project.projectId, key_id: keyB, time: '2026-11-20T09:00:00.000Z' }),
      makeEvent({ project_id: project.projectId, key_id: deletedKey }),
      makeEvent({ project_id: project.projectId, key_id: randomUUID() }),
    ]);
    await waitUntil(() => lastUsed(keyA), (v) => v !== null, 'keyA used');
    expect((await lastUsed(keyA))?.toISOString()).toBe('2026-11-20T10:00:05.000Z');
    expect((await lastUsed(keyB))?.toISOString()).toBe('2026-11-20T09:00:00.000Z');

    // A late event (older) arrives afterwards: last_used_at stays.
    const late = t('2026-11-20T08:00:00.000Z');
    const newer = makeEvent({ project_id: project.projectId, key_id: keyB, time: '2026-11-20T11:00:00.000Z' });
    await sendEvents(producer, topic, [late, newer]);
    await waitUntil(() => lastUsed(keyB), (v) => v?.toISOString() === '2026-11-20T11:00:00.000Z', 'keyB moved forward');
    expect((await lastUsed(keyA))?.toISOString()).toBe('2026-11-20T10:00:05.000Z');
    expect((await pool.query('SELECT 1 FROM request_logs WHERE id = $1', [late.id])).rowCount).toBe(1);
  });

  it('commits offsets only for what it stored, and all of it when it stops gracefully', async () => {
    const stopping = createLogIngest(configFor(stopTopic));
    await stopping.start();
    const local = await connectProducer(kafka);
    try {
      const events = Array.from({ length: 120 }, () => makeEvent({ project_id: project.projectId }));
      await sendEvents(local, stopTopic, events);
      await waitUntil(() => pool.query('SELECT count(*)::int AS n FROM request_logs WHERE id = ANY($1::uuid[])', [events.map((e) => e.id)]), (r) => r.rows[0].n === 120, '120 rows');
    } finally {
      await local.disconnect();
      await stopping.stop();
    }
    expect(await committedTotal(kafka, stopTopic, stopTopic)).toBe(await topicSize(kafka, stopTopic));
  });
});

describe('log-ingest while PostgreSQL refuses writes', () => {
  const admin = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  const kafka = testKafka(loadLogIngestConfig().kafkaBrokers);
  const role = `li_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const topic = uniqueName('li-refused');
  let ingest: LogIngest | undefined;
  let producer: Producer | undefined;
  const projectId = randomUUID();

  beforeAll(async () => {
    // The service connects as its own role; taking INSERT away makes every write fail for real.
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT SELECT, INSERT ON request_logs TO ${role}`);
    await admin.query(`GRANT SELECT, UPDATE ON api_keys TO ${role}`);
    // Rows and their rollup deltas are written in one transaction (request-log.repository.ts);
    // the fold moves the deltas into the rollups.
    await admin.query(`GRANT SELECT, INSERT, UPDATE ON request_log_rollups TO ${role}`);
    await admin.query(`GRANT SELECT, INSERT, DELETE ON request_log_rollup_deltas TO ${role}`);
  });

  afterAll(async () => {
    await producer?.disconnect();
    await ingest?.stop();
    await admin.query('DELETE FROM request_logs WHERE project_id = $1', [projectId]);
    await admin.query('DELETE FROM request_log_rollups WHERE project_id = $1', [projectId]);
    await admin.query('DELETE FROM request_log_rollup_deltas WHERE project_id = $1', [projectId]);
    await admin.query(`DROP OWNED BY ${role}`);
    await admin.query(`DROP ROLE ${role}`);
    await admin.end();
    await deleteTopics(kafka, [topic]);
  });

  it('keeps the batch uncommitted, retries with backoff, and stores everything once writes work again', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.username = role;
    ingest = createLogIngest(configFor(topic, { DATABASE_URL: url.toString() }));
    await ingest.start();
    const running = ingest;
    await admin.query(`REVOKE INSERT ON request_logs FROM ${role}`);

    producer = await connectProducer(kafka);
    const events = Array.from({ length: 40 }, () => makeEvent({ project_id: projectId }));
    await sendEvents(producer, topic, events);

    await waitUntil(() => metricValue(running, 'flowgate_log_ingest_write_failures_total'), (n) => n >= 3, 'failed write attempts');
    expect(await running.readiness()).toMatchObject({ ready: false, checks: { postgres: 'down' } });
    expect(await metricValue(running, 'flowgate_log_ingest_database_available')).toBe(0);
    expect(await committedTotal(kafka, topic, topic)).toBe(0);
    expect((await countStored(admin, projectId)).rows).toBe(0);
    expect(await lagTotal(running)).toBe(40);

    await admin.query(`GRANT INSERT ON request_logs TO ${role}`);
    await waitUntil(() => countStored(admin, projectId), (c) => c.rows === 40, '40 rows');
    await waitUntil(() => committedTotal(kafka, topic, topic), (n) => n === 40, 'offsets committed');
    expect(await countStored(admin, projectId)).toEqual({ rows: 40, distinct: 40 });
    expect(await running.readiness()).toMatchObject({ ready: true, checks: { postgres: 'up' } });
    expect(await lagTotal(running)).toBe(0);
  });
});
