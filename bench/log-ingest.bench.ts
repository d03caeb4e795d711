/**
 * Log pipeline: how fast log-ingest drains Kafka into PostgreSQL, and how soon a request's
 * row is visible. Target: ≥ 20,000 events/s sustained; a row visible within 2 s (p99) at
 * 1,000 events/s.
 *
 * 1. Throughput: BENCH_LOG_EVENTS (300,000) gateway-shaped events are produced to a fresh
 *    6-partition topic first; then a log-ingest instance starts on a throwaway, migrated
 *    database and the time to store them all is measured (from its first committed batch to
 *    the last, and from start including the group join).
 * 2. Latency: a second topic receives BENCH_LOG_RATE (1,000) events/s for BENCH_LOG_SECONDS
 *    (20) s, in 10 ms ticks as a gateway would send them, while log-ingest runs; a poller
 *    looks the pending ids up every 20 ms. Latency = row found − send started (so it includes
 *    the produce round trip, the consumer's fetch wait and the transaction; the poll adds ≤ 20 ms).
 *
 * 3. Cost of the stats rollups: the preloaded topic of 1. is consumed again by a log-ingest
 *    without rollups (fresh tables, a new consumer group), and the rates compared, as events
 *    per second and as events per CPU-second (log-ingest + its PostgreSQL backends), which
 *    other load on a shared machine does not move. Target: rollups cost ≤ 15 %.
 *
 * Everything it creates (database, topics) is removed at the end.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { connectProducer, createThrowawayDatabase, createTopic, makeEvent, sendEvents, testKafka, uniqueName } from '@flowgate/testing';
import { migrate } from '@flowgate/db';
import { createLogger } from '@flowgate/platform';
import type { RequestLogDetails, RequestLogEvent } from '@flowgate/contracts';
import { Partitioners, type Producer } from 'kafkajs';
import { Pool } from 'pg';
import { loadLogIngestConfig } from '../apps/log-ingest/src/config';
import { createLogIngest, type LogIngest } from '../apps/log-ingest/src/log-ingest';
import { setTimeout as sleep } from 'node:timers/promises';

const EVENTS = Number(process.env.BENCH_LOG_EVENTS ?? 300_000);
const RATE = Number(process.env.BENCH_LOG_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_LOG_SECONDS ?? 20);
/** `0`: events without `details`, as gateways sent them before the Logs page showed headers and bodies. */
const DETAILS = process.env.BENCH_LOG_DETAILS !== '0';
const TARGET = 20_000;
/** Rollups may cost at most this share of the ingest rate. */
const ROLLUP_MAX_COST = 0.15;

const baseConfig = loadLogIngestConfig();
const kafka = testKafka(baseConfig.kafkaBrokers, 'flowgate-bench');
const logger = createLogger('log-ingest-bench', process.env.LOG_LEVEL ?? 'warn');

/** What a gateway logs of a request (request-details.ts): a client's few headers, a POST's small JSON body, the answer's size. */
function benchDetails(i: number, post: boolean, keyed: boolean): RequestLogDetails {
  const headers: Array<[string, string]> = [
    ['host', `shop-${i % 200}.flowgate.example`],
    ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'],
    ['accept', 'application/json'],
  ];
  if (keyed) headers.push(['authorization', '[redacted]']);
  if (!post) return { headers, body: null, body_bytes: null, body_truncated: false, response_bytes: 40 + (i % 400) };
  const body = `{"customer":"c-${i % 997}","items":[{"sku":"tea-${i % 31}","qty":${1 + (i % 5)}}],"note":"leave at the door"}`;
  headers.push(['content-type', 'application/json'], ['content-length', String(body.length)]);
  return { headers, body, body_bytes: body.length, body_truncated: false, response_bytes: 60 + (i % 200) };
}

/** A realistic mix: a few hundred projects, keys on most requests, some errors. */
function benchEvent(i: number, projects: string[], keys: string[], time = new Date()): RequestLogEvent {
  const project = projects[i % projects.length];
  const failed = i % 20 === 0;
  const post = i % 3 === 0;
  const keyed = i % 4 !== 0;
  return makeEvent({
    project_id: project,
    path: `/endpoint-${i % 17}`,
    method: post ? 'POST' : 'GET',
    status: failed ? 429 : 200,
    code: failed ? 'rate_limited' : null,
    duration_ms: (i % 250) / 10,
    key_id: keyed ? keys[i % keys.length] : null,
    time: time.toISOString(),
    details: DETAILS ? JSON.stringify(benchDetails(i, post, keyed)) : null,
  });
}

function ids(n: number): string[] {
  return Array.from({ length: n }, () => randomUUID());
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function rowsInserted(ingest: LogIngest): Promise<number> {
  const metric = await ingest.metrics.getSingleMetric('flowgate_log_ingest_rows_inserted_total')?.get();
  return metric?.values[0]?.value ?? 0;
}

function ingestFor(topic: string, databaseUrl: string, { group = topic, rollups = true } = {}): LogIngest {
  return createLogIngest(
    loadLogIngestConfig({ ...process.env, DATABASE_URL: databaseUrl, KAFKA_LOG_TOPIC: topic, KAFKA_LOG_DLQ_TOPIC: `${topic}.dlq`, LOG_INGEST_GROUP: group }),
    { logger, rollups },
  );
}

async function preload(topic: string, projects: string[], keys: string[]): Promise<number> {
  // A plain (non-idempotent) producer with several requests in flight: this is set-up, not measured.
  const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const started = performance.now();
  try {
    const chunk = 2000;
    const inFlight: Promise<unknown>[] = [];
    for (let sent = 0; sent < EVENTS; sent += chunk) {
      const events = Array.from({ length: Math.min(chunk, EVENTS - sent) }, (_, j) => benchEvent(sent + j, projects, keys));
      inFlight.push(producer.send({ topic, acks: -1, messages: events.map((e) => ({ key: e.project_id, value: JSON.stringify(e) })) }));
      if (inFlight.length >= 8) await inFlight.shift();
    }
    await Promise.all(inFlight);
  } finally {
    await producer.disconnect();
  }
  return (performance.now() - started) / 1000;
}

/** CPU seconds (user + system) a process has used, from /proc (Linux); null where unreadable. */
function processCpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/** CPU used so far by log-ingest's PostgreSQL backends (they live as long as its pool). */
async function backendCpuSeconds(pool: Pool): Promise<number | null> {
  const { rows } = await pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = 'flowgate-log-ingest'");
  let total = 0;
  for (const { pid } of rows) {
    const used = processCpuSeconds(pid);
    if (used === null) return null;
    total += used;
  }
  return total;
}

async function preloadedTopic(projects: string[], keys: string[]): Promise<string> {
  const topic = uniqueName('bench-log-ingest');
  await createTopic(kafka, topic, 6);
  const produceSeconds = await preload(topic, projects, keys);
  console.log(`produced ${EVENTS} events in ${produceSeconds.toFixed(1)} s`);
  return topic;
}

/** Stores the preloaded topic from its start with a new consumer group. */
async function measureThroughput(pool: Pool, databaseUrl: string, topic: string, rollups: boolean) {
  const ingest = ingestFor(topic, databaseUrl, { group: uniqueName(topic), rollups });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await ingest.start();
  let firstRowAt = 0;
  let inserted = 0;
  const deadline = Date.now() + Math.max(120_000, EVENTS / 2);
  while (inserted < EVENTS) {
    if (Date.now() > deadline) throw new Error(`only ${inserted} of ${EVENTS} rows stored in time`);
    await sleep(25);
    inserted = await rowsInserted(ingest);
    if (inserted > 0 && firstRowAt === 0) firstRowAt = performance.now();
  }
  const finished = performance.now();
  const nodeCpu = (() => {
    const used = process.cpuUsage(cpuBefore);
    return (used.user + used.system) / 1e6;
  })();
  const databaseCpu = await backendCpuSeconds(pool);
  await ingest.stop();
  return {
    nodeCpu,
    databaseCpu,
    sustained: EVENTS / ((finished - firstRowAt) / 1000),
    overall: EVENTS / ((finished - started) / 1000),
    seconds: (finished - started) / 1000,
  };
}

async function measureLatency(pool: Pool, databaseUrl: string, projects: string[], keys: string[]) {
  const topic = uniqueName('bench-log-latency');
  await createTopic(kafka, topic, 6);
  const ingest = ingestFor(topic, databaseUrl);
  await ingest.start();
  const producer: Producer = await connectProducer(kafka);
  const pending = new Map<string, { sentAt: number; time: string; projectId: string }>();
  const latencies: number[] = [];
  let producing = true;

  const poller = (async () => {
    while (producing || pending.size > 0) {
      await sleep(20);
      if (pending.size === 0) continue;
      const entries = [...pending.entries()];
      const { rows } = await pool.query<{ id: string }>(
        `SELECT r.id FROM request_logs r
           JOIN unnest($1::uuid[], $2::timestamptz[], $3::uuid[]) AS p(project_id, time, id)
             ON r.project_id = p.project_id AND r.time = p.time AND r.id = p.id`,
        [entries.map(([, v]) => v.projectId), entries.map(([, v]) => v.time), entries.map(([id]) => id)],
      );
      const seenAt = performance.now();
      for (const { id } of rows) {
        latencies.push(seenAt - pending.get(id)!.sentAt);
        pending.delete(id);
      }
    }
  })();

  const perTick = Math.max(1, Math.round(RATE / 100));
  const ticks = SECONDS * 100;
  const begin = performance.now();
  const sends: Promise<void>[] = [];
  for (let tick = 0; tick < ticks; tick += 1) {
    const due = begin + tick * 10;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const now = new Date();
    const events = Array.from({ length: perTick }, (_, j) => benchEvent(tick * perTick + j, projects, keys, now));
    const sentAt = performance.now();
    for (const e of events) pending.set(e.id, { sentAt, time: e.time, projectId: e.project_id });
    sends.push(sendEvents(producer, topic, events));
  }
  await Promise.all(sends);
  producing = false;
  const drainDeadline = Date.now() + 30_000;
  while (pending.size > 0 && Date.now() < drainDeadline) await sleep(50);
  const missing = pending.size;
  pending.clear();
  await poller;
  await producer.disconnect();
  await ingest.stop();
  latencies.sort((a, b) => a - b);
  return { topic, sent: ticks * perTick, missing, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] };
}

async function main(): Promise<void> {
  const database = await createThrowawayDatabase('flowgate_bench', baseConfig.databaseUrl);
  const pool = new Pool({ connectionString: database.url, max: 2 });
  const topics: string[] = [];
  try {
    await migrate(database.url, { quiet: true });
    const projects = ids(200);
    const keys = ids(500);
    console.log(`log-ingest bench: ${EVENTS} events, then ${RATE}/s for ${SECONDS} s (database ${database.name})`);

    const preloaded = await preloadedTopic(projects, keys);
    topics.push(preloaded, `${preloaded}.dlq`);
    const throughput = await measureThroughput(pool, database.url, preloaded, true);
    console.log(
      `ingest: ${Math.round(throughput.sustained)} events/s sustained (first to last batch), ` +
        `${Math.round(throughput.overall)} events/s including start-up (${throughput.seconds.toFixed(1)} s) — target ≥ ${TARGET}`,
    );
    // On a shared machine the wall-clock rate depends on what else runs; CPU per event does not.
    const cpuSeconds = throughput.databaseCpu === null ? null : throughput.nodeCpu + throughput.databaseCpu;
    const perCpuSecond = cpuSeconds === null ? null : Math.round(EVENTS / cpuSeconds);
    console.log(
      `cpu: log-ingest ${throughput.nodeCpu.toFixed(1)} s + its PostgreSQL backends ${throughput.databaseCpu?.toFixed(1) ?? '?'} s ` +
        `= ${perCpuSecond ?? '?'} events per CPU-second (Kafka broker not counted); ${cpus().length} cores here`,
    );

    const latency = await measureLatency(pool, database.url, projects, keys);
    topics.push(latency.topic, `${latency.topic}.dlq`);
    console.log(
      `latency at ${RATE}/s: p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms ` +
        `(${latency.sent} sent, ${latency.missing} not visible after 30 s) — target p99 ≤ 2000 ms`,
    );

    const { rows } = await pool.query<{ rows: string; distinct: string }>('SELECT count(*) AS rows, count(DISTINCT id) AS distinct FROM request_logs');

    // The same events again, stored without rollups into empty tables.
    await pool.query('TRUNCATE request_logs, request_log_rollups, request_log_rollup_deltas');
    const baseline = await measureThroughput(pool, database.url, preloaded, false);
    const perCpu = (run: typeof throughput) => (run.databaseCpu === null ? null : EVENTS / (run.nodeCpu + run.databaseCpu));
    const [withCpu, withoutCpu] = [perCpu(throughput), perCpu(baseline)];
    const rollupCost = withCpu === null || withoutCpu === null ? 1 - throughput.sustained / baseline.sustained : 1 - withCpu / withoutCpu;
    console.log(
      `rollups: ${Math.round(throughput.sustained)} events/s with them, ${Math.round(baseline.sustained)} without; ` +
        `${withCpu === null ? '?' : Math.round(withCpu)} vs ${withoutCpu === null ? '?' : Math.round(withoutCpu)} events per CPU-second ` +
        `→ rollups cost ${(rollupCost * 100).toFixed(1)} % — target ≤ ${ROLLUP_MAX_COST * 100} %`,
    );
    const expected = EVENTS + latency.sent;
    console.log(`stored ${rows[0].rows} rows (${rows[0].distinct} distinct) of ${expected} sent`);
    console.log(
      JSON.stringify({
        bench: 'log-ingest',
        events: EVENTS,
        ingest_events_per_s: Math.round(throughput.sustained),
        ingest_events_per_s_with_startup: Math.round(throughput.overall),
        ingest_events_per_cpu_s: perCpuSecond,
        target_events_per_s: TARGET,
        latency_rate_per_s: RATE,
        latency_p50_ms: Math.round(latency.p50),
        latency_p99_ms: Math.round(latency.p99),
        latency_max_ms: Math.round(latency.max),
        stored: Number(rows[0].rows),
        sent: expected,
        ingest_events_per_s_without_rollups: Math.round(baseline.sustained),
        ingest_events_per_cpu_s_without_rollups: withoutCpu === null ? null : Math.round(withoutCpu),
        rollup_cost_pct: Math.round(rollupCost * 1000) / 10,
        ok: throughput.sustained >= TARGET && latency.p99 <= 2000 && Number(rows[0].distinct) === expected && rollupCost <= ROLLUP_MAX_COST,
      }),
    );
  } finally {
    await pool.end();
    await database.drop();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics }).catch(() => undefined);
    await admin.disconnect();
  }
}

main().catch((error) => {
  console.error(`log-ingest bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
