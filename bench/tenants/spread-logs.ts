/**
 * What spreading traffic over many projects costs the request logs: CPU per stored event of a
 * log-ingest process and of its PostgreSQL backends with the same traffic from 1 project and
 * from `projects`, in turns on one log-ingest (run as `npm run up` runs it, with a throwaway
 * database and a topic of its own; fed by the gateway's own sender). Each turn sends `rate`
 * events/s for `seconds` (60, the fold interval), then waits until every event is stored and
 * every rollup delta of the turn is folded (the fold's CPU is the turn's too); `rounds` turns
 * each, alternating, after a 3 s warm-up each; medians are returned. Shared by
 * `npm run bench -- log-ingest-projects` and `npm run bench -- tenants`.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { processCpuSeconds, sampleDatabaseBackends } from '../stack/cpu';
import { drain, rowsInserted } from '../stack/log-ingest-rows';
import { deployedFlags, feed, median, round, startLogIngest, stopLogIngest, type Feed, type LogIngestUnderTest } from '../log-ingest-alone/process';

const APPLICATION_NAME = 'flowgate-bench-spread-logs';
const FOLD_TIMEOUT_MS = 120_000;

export interface SpreadLogsOptions {
  rate: number;
  seconds: number;
  rounds: number;
  projects: number;
  /** log-ingest's health port. */
  port: number;
  /** Each turn's figures as they come. */
  progress?: (line: string) => void;
}

/** Medians per stored event (µs) of log-ingest and PostgreSQL, and rollup delta rows per event. */
export interface LogCost {
  log_ingest_us: number;
  postgres_us: number;
  deltas_per_event: number;
}

export interface SpreadLogs {
  one: LogCost;
  many: LogCost;
  /** many / one: log-ingest, PostgreSQL, and both together (the goal's figure). */
  ratio: { log_ingest: number; postgres: number; both: number };
}

interface Shape {
  name: string;
  traffic: Feed;
  logIngestUs: number[];
  postgresUs: number[];
  deltasPerEvent: number[];
}

export async function measureSpreadLogs(options: SpreadLogsOptions): Promise<SpreadLogs> {
  const shape = (name: string, projectIds: string[]): Shape => ({ name, traffic: { rate: options.rate, projectIds, keyId: null }, logIngestUs: [], postgresUs: [], deltasPerEvent: [] });
  const shapes = [shape('1 project', [randomUUID()]), shape(`${options.projects} projects`, Array.from({ length: options.projects }, () => randomUUID()))];
  const target = await startLogIngest('projects', deployedFlags(), options.port, APPLICATION_NAME);
  try {
    for (const { traffic } of shapes) {
      const [from, sent] = [await rowsInserted(target.port), target.sent];
      await feed(target, traffic, 3);
      await drain(target.port, from, target.sent - sent);
    }
    await folded(target);
    for (let turn = 0; turn < options.rounds; turn += 1) {
      for (const each of turn % 2 === 0 ? shapes : [...shapes].reverse()) await measure(target, each, options);
    }
    const [one, many] = shapes.map((s) => ({ log_ingest_us: round(median(s.logIngestUs)), postgres_us: round(median(s.postgresUs)), deltas_per_event: round(median(s.deltasPerEvent)) })) as [LogCost, LogCost];
    const ratio = {
      log_ingest: round(many.log_ingest_us / one.log_ingest_us),
      postgres: round(many.postgres_us / one.postgres_us),
      both: round((many.log_ingest_us + many.postgres_us) / (one.log_ingest_us + one.postgres_us)),
    };
    return { one, many, ratio };
  } finally {
    await stopLogIngest(target);
  }
}

/** Waits until the fold has taken every rollup delta there is. */
async function folded(target: LogIngestUnderTest): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { rows } = await target.pool.query<{ left: boolean }>('SELECT EXISTS (SELECT 1 FROM request_log_rollup_deltas) AS left');
    if (rows[0]?.left === false) return;
    if (Date.now() - started > FOLD_TIMEOUT_MS) throw new Error(`rollup deltas not folded after ${FOLD_TIMEOUT_MS / 1000} s`);
    await sleep(200);
  }
}

/** Rollup delta rows written so far (PostgreSQL's statistics; reported within a second of a commit). */
async function deltasWritten(target: LogIngestUnderTest): Promise<number> {
  const { rows } = await target.pool.query<{ n: string }>(`SELECT n_tup_ins AS n FROM pg_stat_user_tables WHERE relname = 'request_log_rollup_deltas'`);
  return Number(rows[0]?.n ?? 0);
}

async function measure(target: LogIngestUnderTest, shape: Shape, options: SpreadLogsOptions): Promise<void> {
  const from = await rowsInserted(target.port);
  const sent = target.sent;
  const deltas = await deltasWritten(target);
  const stopBackends = sampleDatabaseBackends(target.pool, APPLICATION_NAME);
  const process0 = processCpuSeconds(target.child.pid!);
  await feed(target, shape.traffic, options.seconds);
  const events = target.sent - sent;
  await drain(target.port, from, events);
  await folded(target);
  const process1 = processCpuSeconds(target.child.pid!);
  shape.logIngestUs.push(((process1 - process0) * 1e6) / events);
  shape.postgresUs.push(((await stopBackends()) * 1e6) / events);
  shape.deltasPerEvent.push(((await deltasWritten(target)) - deltas) / events);
  options.progress?.(
    `${shape.name.padEnd(13)} ${events} events: log-ingest ${round(shape.logIngestUs.at(-1)!)} µs/event, PostgreSQL ${round(shape.postgresUs.at(-1)!)} µs/event, ` +
      `${round(shape.deltasPerEvent.at(-1)!)} rollup delta rows/event`,
  );
}
