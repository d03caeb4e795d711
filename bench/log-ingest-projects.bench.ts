/**
 * What spreading traffic over many projects costs log-ingest: CPU per stored event of the
 * log-ingest process and of its PostgreSQL backends with the same traffic from 1 project and
 * from BENCH_PROJECTS (500), in turns on one log-ingest, the 500 as a ratio of the 1 (the
 * baseline, in the same process tree). (`npm run bench -- log-ingest-projects`)
 *
 * log-ingest runs as `npm run up` runs it (its Node flags, from source), with a throwaway
 * database and a topic of its own; the feed is the gateway's own sender (one message per partition
 * and send): BENCH_PROJECTS_RATE events/s (3,000, the whole-stack bench's rate: batches are
 * small there, so per-batch costs show) for BENCH_PROJECTS_SECONDS s a turn (60, the fold
 * interval), then until every event is stored and every rollup delta of the turn is folded (the
 * fold's CPU is the turn's too, and a turn's fold covers about the turn: shorter turns measure
 * a shorter interval), BENCH_PROJECTS_ROUNDS (3: the first turn of a run costs more, and a median
 * of three leaves it out) turns each, alternating, after a 3 s warm-up
 * each. Medians are printed. Goal: 500 projects within 1.5× of 1 (docs/scaling.md).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { processCpuSeconds, sampleDatabaseBackends } from './stack/cpu';
import { drain, rowsInserted } from './stack/log-ingest-rows';
import { deployedFlags, feed, median, round, startLogIngest, stopLogIngest, type Feed, type LogIngestUnderTest } from './log-ingest-alone/process';

const RATE = Number(process.env.BENCH_PROJECTS_RATE ?? 3_000);
const SECONDS = Number(process.env.BENCH_PROJECTS_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_PROJECTS_ROUNDS ?? 3);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 500);
const GOAL = 1.5;
const APPLICATION_NAME = 'flowgate-bench-log-ingest-projects';
const FOLD_TIMEOUT_MS = 120_000;

interface Shape {
  name: string;
  traffic: Feed;
  logIngestUs: number[];
  postgresUs: number[];
  deltasPerEvent: number[];
}

const shapes: Shape[] = [
  { name: '1 project', traffic: { rate: RATE, projectIds: [randomUUID()], keyId: null }, logIngestUs: [], postgresUs: [], deltasPerEvent: [] },
  { name: `${PROJECTS} projects`, traffic: { rate: RATE, projectIds: Array.from({ length: PROJECTS }, () => randomUUID()), keyId: null }, logIngestUs: [], postgresUs: [], deltasPerEvent: [] },
];

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

async function measure(target: LogIngestUnderTest, shape: Shape): Promise<void> {
  const from = await rowsInserted(target.port);
  const sent = target.sent;
  const deltas = await deltasWritten(target);
  const stopBackends = sampleDatabaseBackends(target.pool, APPLICATION_NAME);
  const process0 = processCpuSeconds(target.child.pid!);
  await feed(target, shape.traffic, SECONDS);
  const events = target.sent - sent;
  await drain(target.port, from, events);
  await folded(target);
  const process1 = processCpuSeconds(target.child.pid!);
  shape.logIngestUs.push(((process1 - process0) * 1e6) / events);
  shape.postgresUs.push(((await stopBackends()) * 1e6) / events);
  shape.deltasPerEvent.push(((await deltasWritten(target)) - deltas) / events);
  process.stdout.write(
    `${shape.name.padEnd(13)} ${events} events: log-ingest ${round(shape.logIngestUs.at(-1)!)} µs/event, PostgreSQL ${round(shape.postgresUs.at(-1)!)} µs/event, ` +
      `${round(shape.deltasPerEvent.at(-1)!)} rollup delta rows/event\n`,
  );
}

async function main(): Promise<void> {
  const target = await startLogIngest('projects', deployedFlags(), 3093, APPLICATION_NAME);
  process.stdout.write(`log-ingest, 1 vs ${PROJECTS} projects, ${RATE} events/s for ${SECONDS} s per turn, until stored and folded\n`);
  try {
    for (const shape of shapes) {
      const [from, sent] = [await rowsInserted(target.port), target.sent];
      await feed(target, shape.traffic, 3);
      await drain(target.port, from, target.sent - sent);
    }
    await folded(target);
    for (let turn = 0; turn < ROUNDS; turn += 1) {
      for (const shape of turn % 2 === 0 ? shapes : [...shapes].reverse()) await measure(target, shape);
    }
    const [one, many] = shapes.map((s) => ({ log_ingest_us: round(median(s.logIngestUs)), postgres_us: round(median(s.postgresUs)), deltas_per_event: round(median(s.deltasPerEvent)) }));
    const ratio = {
      log_ingest: round(many!.log_ingest_us / one!.log_ingest_us),
      postgres: round(many!.postgres_us / one!.postgres_us),
      both: round((many!.log_ingest_us + many!.postgres_us) / (one!.log_ingest_us + one!.postgres_us)),
    };
    process.stdout.write(
      `medians: 1 project ${one!.log_ingest_us} / ${one!.postgres_us} µs, ${PROJECTS} projects ${many!.log_ingest_us} / ${many!.postgres_us} µs (log-ingest / PostgreSQL); ` +
        `${PROJECTS} projects = ${ratio.log_ingest}× / ${ratio.postgres}× / ${ratio.both}× (log-ingest / PostgreSQL / both) of 1 project — goal ≤ ${GOAL}×\n`,
    );
    process.stdout.write(
      `${JSON.stringify({ bench: 'log-ingest-projects', rate: RATE, seconds: SECONDS, rounds: ROUNDS, projects: PROJECTS, one_project: one, many_projects: many, ratio, ok: ratio.both <= GOAL })}\n`,
    );
  } finally {
    await stopLogIngest(target);
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
