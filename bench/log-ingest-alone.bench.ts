/**
 * log-ingest alone, fed as a gateway feeds it: CPU per stored event of the log-ingest process
 * and of its PostgreSQL backends, for log-ingest as `npm run up` runs it against a baseline
 * (other Node flags), in turns in one run. (`npm run bench -- log-ingest-alone`)
 *
 * Each variant is a log-ingest process of its own (its flags, a throwaway migrated database,
 * a topic and consumer group of its own), started from source as the stack starts it. The
 * feed is the gateway's own sender and event JSON (KafkaLogSender, requestLogEventJson): one
 * project, `GET /shout`, all 200s — the whole-stack bench's traffic — BENCH_ALONE_RATE (20,000)
 * events/s in sends every 50 ms, for BENCH_ALONE_SECONDS (10) s, then until every event is
 * stored (log-ingest's own count, /metrics). CPU from /proc: user + system of all threads, and the
 * backends sampled every 500 ms (bench/stack/cpu.ts). The variants take
 * BENCH_ALONE_ROUNDS (3) turns each, alternating, after a 3 s warm-up each; medians are printed,
 * with the deployed variant's as a ratio of the baseline's. BENCH_ALONE_BASELINE_FLAGS sets the
 * baseline (default: the flags before 2026-11-24's fourth round, without
 * `--initial-old-space-size`); BENCH_ALONE_KEYED=1 sends every event with a key id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createThrowawayDatabase, createTopic, deleteTopics, testKafka, uniqueName, type ThrowawayDatabase } from '@flowgate/testing';
import { migrate } from '@flowgate/db';
import { createLogger } from '@flowgate/platform';
import { Pool } from 'pg';
import { KafkaLogSender } from '../apps/gateway/src/request-log/kafka-log-sender';
import { requestLogEventJson } from '../apps/gateway/src/request-log/request-log-json';
import { processCpuSeconds, sampleDatabaseBackends } from './stack/cpu';
import { drain, rowsInserted } from './stack/log-ingest-rows';

const RATE = Number(process.env.BENCH_ALONE_RATE ?? 20_000);
const SECONDS = Number(process.env.BENCH_ALONE_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ALONE_ROUNDS ?? 3);
const KEYED = process.env.BENCH_ALONE_KEYED === '1';
const BASELINE_FLAGS = process.env.BENCH_ALONE_BASELINE_FLAGS ?? '--single-threaded-gc --max-semi-space-size=32';
const TICK_MS = 50;
const ROOT = path.resolve(__dirname, '..');
/** The bench's own connections, left out of the backends measured. */
const APPLICATION_NAME = 'flowgate-bench-log-ingest-alone';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number) => Math.round(value * 100) / 100;

/** log-ingest's Node flags as `npm run up` starts it (scripts/lib/stack-services.js). */
function deployedFlags(): string[] {
  const { stackServices } = require('../scripts/lib/stack-services') as { stackServices(env: NodeJS.ProcessEnv): Array<{ name: string; args: string[] }> };
  const { args } = stackServices({ ...process.env, STACK_NODE_FLAGS: '' }).find((service) => service.name === 'log-ingest')!;
  return args.filter((arg) => arg.startsWith('--'));
}

interface Variant {
  name: 'deployed' | 'baseline';
  flags: string[];
  port: number;
  database: ThrowawayDatabase;
  pool: Pool;
  topic: string;
  child: ChildProcess;
  sender: KafkaLogSender;
  sent: number;
  logIngestUs: number[];
  postgresUs: number[];
}

const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const kafka = testKafka(brokers, 'flowgate-bench');
const projectId = randomUUID();
const endpointId = randomUUID();
const keyId = randomUUID();

async function startVariant(name: Variant['name'], flags: string[], port: number): Promise<Variant> {
  const database = await createThrowawayDatabase('flowgate_bench_alone');
  await migrate(database.url, { quiet: true });
  const topic = uniqueName(`bench-alone-${name}`);
  await createTopic(kafka, topic, 6);
  await createTopic(kafka, `${topic}.dlq`, 1);
  const child = spawn(process.execPath, [...flags, path.join(ROOT, 'scripts/run-ts.js'), 'apps/log-ingest/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url, KAFKA_LOG_TOPIC: topic, KAFKA_LOG_DLQ_TOPIC: `${topic}.dlq`, LOG_INGEST_GROUP: topic, LOG_INGEST_PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; !(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)); attempt += 1) {
    if (attempt > 600 || child.exitCode !== null) throw new Error(`log-ingest (${name}) did not become ready`);
    await sleep(100);
  }
  const pool = new Pool({ connectionString: database.url, max: 1, application_name: APPLICATION_NAME });
  const sender = new KafkaLogSender({ brokers, topic, clientId: `bench-alone-${name}`, logger: createLogger('bench', 'warn') });
  return { name, flags, port, database, pool, topic, child, sender, sent: 0, logIngestUs: [], postgresUs: [] };
}

/** Sends RATE events a second for `seconds`, in a gateway's sends (one message per project and send). */
async function feed(variant: Variant, seconds: number): Promise<void> {
  const perTick = (RATE * TICK_MS) / 1000;
  const started = Date.now();
  for (let tick = 0; tick < (seconds * 1000) / TICK_MS; tick += 1) {
    const now = Date.now();
    const messages = Array.from({ length: perTick }, (_, i) => ({
      key: projectId,
      value: requestLogEventJson({
        id: randomUUID(),
        projectId,
        endpointId,
        path: '/shout',
        method: 'GET',
        status: 200,
        code: null,
        durationMs: Math.round(Math.random() * 300) / 100,
        keyId: KEYED ? keyId : null,
        query: '',
        message: null,
        errorNodeId: null,
        arrivalMs: now - TICK_MS + Math.floor((i * TICK_MS) / perTick),
        preview: false,
      }),
    }));
    await variant.sender.send(messages);
    variant.sent += messages.length;
    const wait = started + (tick + 1) * TICK_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }
}

async function measure(variant: Variant): Promise<void> {
  const from = await rowsInserted(variant.port);
  const sent = variant.sent;
  const stopBackends = sampleDatabaseBackends(variant.pool, APPLICATION_NAME);
  const process0 = processCpuSeconds(variant.child.pid!);
  await feed(variant, SECONDS);
  const events = variant.sent - sent;
  await drain(variant.port, from, events);
  const process1 = processCpuSeconds(variant.child.pid!);
  variant.logIngestUs.push(((process1 - process0) * 1e6) / events);
  variant.postgresUs.push(((await stopBackends()) * 1e6) / events);
  process.stdout.write(`${variant.name.padEnd(9)} ${events} events: log-ingest ${round(variant.logIngestUs.at(-1)!)} µs/event, PostgreSQL ${round(variant.postgresUs.at(-1)!)} µs/row\n`);
}

async function stop(variant: Variant): Promise<void> {
  variant.child.kill('SIGTERM');
  if (variant.child.exitCode === null) await new Promise((resolve) => variant.child.once('exit', resolve));
  await variant.pool.end();
  await variant.database.drop();
  await deleteTopics(kafka, [variant.topic, `${variant.topic}.dlq`]).catch(() => undefined);
}

async function main(): Promise<void> {
  const variants = [await startVariant('deployed', deployedFlags(), 3091), await startVariant('baseline', BASELINE_FLAGS.split(' ').filter(Boolean), 3092)];
  process.stdout.write(`log-ingest alone, ${RATE} events/s for ${SECONDS} s per turn${KEYED ? ', keyed' : ''}; ${variants.map((v) => `${v.name}: ${v.flags.join(' ')}`).join('; ')}\n`);
  try {
    for (const variant of variants) {
      const from = await rowsInserted(variant.port);
      await feed(variant, 3);
      await drain(variant.port, from, variant.sent);
    }
    for (let turn = 0; turn < ROUNDS; turn += 1) {
      for (const variant of turn % 2 === 0 ? variants : [...variants].reverse()) await measure(variant);
    }
    const [deployed, baseline] = variants.map((v) => ({ log_ingest_us: round(median(v.logIngestUs)), postgres_us: round(median(v.postgresUs)) }));
    process.stdout.write(
      `medians: deployed ${deployed.log_ingest_us} / ${deployed.postgres_us} µs, baseline ${baseline.log_ingest_us} / ${baseline.postgres_us} µs (log-ingest / PostgreSQL); ` +
        `log-ingest deployed = ${round(deployed.log_ingest_us / baseline.log_ingest_us)}× baseline\n`,
    );
    process.stdout.write(
      `${JSON.stringify({ bench: 'log-ingest-alone', rate: RATE, seconds: SECONDS, rounds: ROUNDS, keyed: KEYED, deployed, baseline, log_ingest_ratio: round(deployed.log_ingest_us / baseline.log_ingest_us) })}\n`,
    );
  } finally {
    for (const variant of variants) await stop(variant);
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
