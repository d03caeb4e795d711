/**
 * What spreading traffic over many projects costs log-ingest: CPU per stored event of the
 * log-ingest process and of its PostgreSQL backends with the same traffic from 1 project and
 * from BENCH_PROJECTS (500), in turns on one log-ingest, the 500 as a ratio of the 1 (the
 * baseline, in the same process tree). (`npm run bench -- log-ingest-projects`; the same
 * measurement is a row of `npm run bench -- tenants`.)
 *
 * How it is measured: tenants/spread-logs.ts. BENCH_PROJECTS_RATE events/s (3,000, the
 * whole-stack bench's rate: batches are small there, so per-batch costs show) for
 * BENCH_PROJECTS_SECONDS s a turn (60, the fold interval: a turn's fold covers about the turn,
 * shorter turns measure a shorter interval), BENCH_PROJECTS_ROUNDS (3: the first turn of a run
 * costs more, and a median of three leaves it out) turns each. Medians are printed. Goal: 500
 * projects within 1.5× of 1 (docs/scaling.md).
 */
import { measureSpreadLogs } from './tenants/spread-logs';

const RATE = Number(process.env.BENCH_PROJECTS_RATE ?? 3_000);
const SECONDS = Number(process.env.BENCH_PROJECTS_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_PROJECTS_ROUNDS ?? 3);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 500);
const GOAL = 1.5;

async function main(): Promise<void> {
  process.stdout.write(`log-ingest, 1 vs ${PROJECTS} projects, ${RATE} events/s for ${SECONDS} s per turn, until stored and folded\n`);
  const { one, many, ratio } = await measureSpreadLogs({ rate: RATE, seconds: SECONDS, rounds: ROUNDS, projects: PROJECTS, port: 3093, progress: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(
    `medians: 1 project ${one.log_ingest_us} / ${one.postgres_us} µs, ${PROJECTS} projects ${many.log_ingest_us} / ${many.postgres_us} µs (log-ingest / PostgreSQL); ` +
      `${PROJECTS} projects = ${ratio.log_ingest}× / ${ratio.postgres}× / ${ratio.both}× (log-ingest / PostgreSQL / both) of 1 project — goal ≤ ${GOAL}×\n`,
  );
  process.stdout.write(
    `${JSON.stringify({ bench: 'log-ingest-projects', rate: RATE, seconds: SECONDS, rounds: ROUNDS, projects: PROJECTS, one_project: one, many_projects: many, ratio, ok: ratio.both <= GOAL })}\n`,
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
