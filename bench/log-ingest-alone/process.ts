/**
 * A log-ingest process of a bench's own (`npm run up`'s way: from source, given Node flags), with
 * a throwaway migrated database and a topic and consumer group of its own, fed as a gateway
 * feeds it (the gateway's KafkaLogSender and event JSON). Shared by log-ingest-alone and
 * log-ingest-projects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createThrowawayDatabase, createTopic, deleteTopics, testKafka, uniqueName, type ThrowawayDatabase } from '@flowgate/testing';
import { migrate } from '@flowgate/db';
import { createLogger } from '@flowgate/platform';
import { Pool } from 'pg';
import { KafkaLogSender } from '../../apps/gateway/src/request-log/kafka-log-sender';
import { requestLogEventJson } from '../../apps/gateway/src/request-log/request-log-json';

const ROOT = path.resolve(__dirname, '../..');
const TICK_MS = 50;

export const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const kafka = testKafka(brokers, 'flowgate-bench');

/** log-ingest's Node flags as `npm run up` starts it (scripts/lib/stack-services.js). */
export function deployedFlags(): string[] {
  const { stackServices } = require('../../scripts/lib/stack-services') as { stackServices(env: NodeJS.ProcessEnv): Array<{ name: string; args: string[] }> };
  const { args } = stackServices({ ...process.env, STACK_NODE_FLAGS: '' }).find((service) => service.name === 'log-ingest')!;
  return args.filter((arg) => arg.startsWith('--'));
}

export interface LogIngestUnderTest {
  name: string;
  port: number;
  database: ThrowawayDatabase;
  /** The bench's own connection (`applicationName`), left out of the backends measured. */
  pool: Pool;
  topic: string;
  child: ChildProcess;
  sender: KafkaLogSender;
  sent: number;
}

export async function startLogIngest(name: string, flags: string[], port: number, applicationName: string, env: NodeJS.ProcessEnv = {}): Promise<LogIngestUnderTest> {
  const database = await createThrowawayDatabase('flowgate_bench_alone');
  await migrate(database.url, { quiet: true });
  const topic = uniqueName(`bench-alone-${name}`);
  await createTopic(kafka, topic, 6);
  await createTopic(kafka, `${topic}.dlq`, 1);
  const child = spawn(process.execPath, [...flags, path.join(ROOT, 'scripts/run-ts.js'), 'apps/log-ingest/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url, KAFKA_LOG_TOPIC: topic, KAFKA_LOG_DLQ_TOPIC: `${topic}.dlq`, LOG_INGEST_GROUP: topic, LOG_INGEST_PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; !(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)); attempt += 1) {
    if (attempt > 600 || child.exitCode !== null) throw new Error(`log-ingest (${name}) did not become ready`);
    await sleep(100);
  }
  const pool = new Pool({ connectionString: database.url, max: 1, application_name: applicationName });
  const sender = new KafkaLogSender({ brokers, topic, clientId: `bench-alone-${name}`, logger: createLogger('bench', 'warn') });
  return { name, port, database, pool, topic, child, sender, sent: 0 };
}

export interface Feed {
  /** Events a second. */
  rate: number;
  /** The projects the events are spread over, in turn (the gateway packs each project's events of a send into one message). */
  projectIds: readonly string[];
  keyId: string | null;
}

const endpointId = randomUUID();

/** Sends `feed.rate` events a second for `seconds`, in a gateway's sends every 50 ms. */
export async function feed(target: LogIngestUnderTest, { rate, projectIds, keyId }: Feed, seconds: number): Promise<void> {
  const perTick = (rate * TICK_MS) / 1000;
  const started = Date.now();
  for (let tick = 0; tick < (seconds * 1000) / TICK_MS; tick += 1) {
    const now = Date.now();
    const events = Array.from({ length: perTick }, (_, i) => {
      const projectId = projectIds[(tick * perTick + i) % projectIds.length]!;
      return requestLogEventJson({
          id: randomUUID(),
          projectId,
          endpointId,
          path: '/shout',
          method: 'GET',
          status: 200,
          code: null,
          durationMs: Math.round(Math.random() * 300) / 100,
          keyId,
          query: '',
          message: null,
          errorNodeId: null,
          arrivalMs: now - TICK_MS + Math.floor((i * TICK_MS) / perTick),
          preview: false,
        });
    });
    await target.sender.send(events);
    target.sent += events.length;
    const wait = started + (tick + 1) * TICK_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }
}

export async function stopLogIngest(target: LogIngestUnderTest): Promise<void> {
  target.child.kill('SIGTERM');
  if (target.child.exitCode === null) await new Promise((resolve) => target.child.once('exit', resolve));
  await target.pool.end();
  await target.database.drop();
  await deleteTopics(kafka, [target.topic, `${target.topic}.dlq`]).catch(() => undefined);
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const round = (value: number) => Math.round(value * 100) / 100;
