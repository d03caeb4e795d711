/**
 * What a stored request_logs row costs PostgreSQL, per variant of the table's indexes and
 * storage options: the log-ingest writer (RequestLogRepository: COPY of a batch, rollups, key
 * touch, one transaction) writes batches of realistic events into one throwaway database per
 * variant, migrated by the real migrations and then given the variant's indexes. The variants
 * take turns (BENCH_STORAGE_ROUNDS rounds of BENCH_STORAGE_BATCHES batches each, the order
 * rotating), so machine noise and the tables' growth fall on all of them alike. CPU is the
 * writer's one backend, user + system from /proc/<pid>/stat (fields 14–15), per stored row;
 * sizes are the table's and its indexes' bytes per row at the end. No target: it prints
 * figures to compare (docs/database.md, "request_logs: partitions and retention").
 *
 * BENCH_STORAGE_MIX=stack for the whole-stack bench's traffic (default: many projects, see
 * below), BENCH_STORAGE_VARIANTS=<part of a name>,… to run only some, BENCH_STORAGE_ROLLUPS=off
 * to leave the rollups out, BENCH_STORAGE_BATCH (750) rows per batch.
 *
 * Linux only (/proc), and the PostgreSQL server must run on this machine.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { RequestLogEvent } from '@flowgate/contracts';
import { migrate } from '@flowgate/db';
import { createThrowawayDatabase, makeEvent, type ThrowawayDatabase } from '@flowgate/testing';
import { Pool } from 'pg';
import { RequestLogRepository } from '../apps/log-ingest/src/request-log.repository';

const BATCH = Number(process.env.BENCH_STORAGE_BATCH ?? 750);
const BATCHES = Number(process.env.BENCH_STORAGE_BATCHES ?? 20);
const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS ?? 20);
const ONLY = process.env.BENCH_STORAGE_VARIANTS?.split(',');
/**
 * `mixed` (default): BENCH_STORAGE_PROJECTS (50) projects, 12 endpoints, methods, 10 % errors,
 * keys, queries. `stack`: what the whole-stack bench sends, one project's GET /shout answered 200.
 */
const MIX = process.env.BENCH_STORAGE_MIX === 'stack' ? 'stack' : 'mixed';
/** Projects in the traffic: each is a run of its own in every index. */
const PROJECT_COUNT = MIX === 'stack' ? 1 : Number(process.env.BENCH_STORAGE_PROJECTS ?? 50);
/** `off` leaves out the stats rollups, which cost per batch and per (project, method, status) cell, not per row. */
const ROLLUPS = process.env.BENCH_STORAGE_ROLLUPS !== 'off';

const PATH_INDEX = 'CREATE INDEX "request_logs_project_id_path_time_id_idx" ON "request_logs" ("project_id", "path", "time", "id")';
const STATUS_INDEX = 'CREATE INDEX "request_logs_project_id_status_time_id_idx" ON "request_logs" ("project_id", "status", "time", "id")';
/** The predicate of migration 20261124063000: every row but a plain 200. */
const NOT_200 = ' WHERE (status <> 200)';
const PARTIAL = [PATH_INDEX, STATUS_INDEX + NOT_200];

/** Each variant: the secondary indexes of request_logs (the primary key is always there) and other storage changes. */
const VARIANTS: Array<{ name: string; sql: string[] }> = [
  { name: 'path + status (full)', sql: [PATH_INDEX, STATUS_INDEX] },
  { name: 'path + status <> 200', sql: PARTIAL },
  {
    name: '… indexes without dedup, fillfactor 100',
    sql: [`${PATH_INDEX} WITH (deduplicate_items = off, fillfactor = 100)`, `${STATUS_INDEX} WITH (deduplicate_items = off, fillfactor = 100)${NOT_200}`],
  },
  {
    // `live`/`preview` as an enum (4 bytes, a catalogue lookup to parse) instead of VARCHAR(8).
    name: '… environment as an enum',
    sql: [
      ...PARTIAL,
      "CREATE TYPE request_environment AS ENUM ('live', 'preview')",
      `ALTER TABLE request_logs ALTER COLUMN environment DROP DEFAULT,
         ALTER COLUMN environment TYPE request_environment USING environment::request_environment,
         ALTER COLUMN environment SET DEFAULT 'live'`,
    ],
  },
  // Room on each rollup page for the new versions of its rows: more updates stay HOT (no new index entries).
  { name: '… rollups fillfactor 50', sql: [...PARTIAL, 'ALTER TABLE request_log_rollups SET (fillfactor = 50)'] },
  // Rollup rows up to 8 KB stay uncompressed: a busy hour's latency histogram (2–3 KB of JSONB)
  // is otherwise compressed with pglz at every update and decompressed for every bucket merged.
  { name: '… rollups toast_tuple_target 8160', sql: [...PARTIAL, 'ALTER TABLE request_log_rollups SET (toast_tuple_target = 8160)'] },
  { name: '… rollups both', sql: [...PARTIAL, 'ALTER TABLE request_log_rollups SET (fillfactor = 50, toast_tuple_target = 8160)'] },
  { name: 'status <> 200 only (no path index)', sql: [STATUS_INDEX + NOT_200] },
  { name: 'primary key only', sql: [] },
].filter((variant) => !ONLY || ONLY.some((name) => variant.name.includes(name)));

const PROJECTS = Array.from({ length: PROJECT_COUNT }, () => randomUUID());
const KEYS = PROJECTS.map(() => Array.from({ length: 3 }, () => randomUUID()));
const PATHS = Array.from({ length: 12 }, (_, i) => `/endpoint-${i}`);
const ENDPOINTS = PROJECTS.map(() => PATHS.map(() => randomUUID()));
const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE'];
/** The Logs API bench's mix: 90 % 200, then 400, 401, 404, 429, 500. */
const OUTCOMES: Array<[number, number, string | null]> = [
  [0.9, 200, null],
  [0.93, 400, 'invalid_request'],
  [0.95, 401, 'invalid_api_key'],
  [0.97, 404, 'endpoint_not_found'],
  [0.985, 429, 'rate_limited'],
  [1, 500, 'flow_error'],
];

let clock = Date.now();

/** A batch as a gateway sends them: many projects, time ascending, a skewed choice of paths. */
function batch(): RequestLogEvent[] {
  const events: RequestLogEvent[] = [];
  for (let i = 0; i < BATCH; i++) {
    clock += 0.04; // ~25,000 requests a second
    if (MIX === 'stack') {
      events.push(makeEvent({ project_id: PROJECTS[0], endpoint_id: ENDPOINTS[0][0], path: '/shout', duration_ms: 0.4 + (i % 7) / 10, time: new Date(clock).toISOString() }));
      continue;
    }
    const p = Math.floor(Math.random() ** 2 * PROJECTS.length);
    const e = Math.floor(Math.random() ** 2 * PATHS.length);
    const roll = Math.random();
    const [, status, code] = OUTCOMES.find(([upTo]) => roll < upTo)!;
    events.push(
      makeEvent({
        environment: Math.random() < 0.05 ? 'preview' : 'live',
        project_id: PROJECTS[p],
        endpoint_id: ENDPOINTS[p][e],
        path: (Math.random() < 0.25 ? '/api' : '') + PATHS[e],
        method: METHODS[i % METHODS.length],
        status,
        code,
        duration_ms: Math.round(Math.random() ** 3 * 40_000) / 100,
        key_id: Math.random() < 0.75 ? KEYS[p][i % 3] : null,
        query: Math.random() < 0.3 ? `page=${i % 7}&q=shoes` : '',
        message: status >= 400 ? 'Something went wrong with this request' : null,
        error_node_id: status === 500 ? 'node-3' : null,
        time: new Date(clock).toISOString(),
      }),
    );
  }
  return events;
}

function backendCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, clock ticks of 1/100 s
}

interface Subject {
  name: string;
  database: ThrowawayDatabase;
  pool: Pool;
  repository: RequestLogRepository;
  pid: number;
  cpuSeconds: number;
  rows: number;
}

async function prepare(variant: { name: string; sql: string[] }): Promise<Subject> {
  const database = await createThrowawayDatabase('flowgate_bench_storage');
  await migrate(database.url, { quiet: true });
  // One connection: its backend is the one whose CPU is counted.
  const pool = new Pool({ connectionString: database.url, max: 1, idleTimeoutMillis: 0 });
  const { rows: indexes } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'request_logs'::regclass AND NOT i.indisprimary`,
  );
  for (const { name } of indexes) await pool.query(`DROP INDEX "${name}"`);
  for (const sql of variant.sql) await pool.query(sql);
  const pid = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  return { name: variant.name, database, pool, repository: new RequestLogRepository(pool, { rollups: ROLLUPS }), pid, cpuSeconds: 0, rows: 0 };
}

async function sizes(subject: Subject): Promise<{ table: number; indexes: Record<string, number> }> {
  // Summed over the partitions: the heap, and each index of the parent through its partitions' indexes.
  const { rows } = await subject.pool.query<{ name: string; bytes: string }>(`
    SELECT 'heap' AS name, sum(pg_relation_size(inhrelid))::bigint AS bytes FROM pg_inherits WHERE inhparent = 'request_logs'::regclass
    UNION ALL
    SELECT c.relname, sum(pg_relation_size(h.inhrelid))::bigint
      FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_inherits h ON h.inhparent = x.indexrelid
     WHERE x.indrelid = 'request_logs'::regclass
     GROUP BY c.relname
    UNION ALL
    SELECT 'rollups', pg_total_relation_size('request_log_rollups')`);
  const indexes: Record<string, number> = {};
  let table = 0;
  for (const row of rows) {
    if (row.name === 'heap') table = Number(row.bytes);
    else indexes[row.name.replace(/^request_logs_/, '')] = Number(row.bytes);
  }
  return { table, indexes };
}

async function main(): Promise<void> {
  const subjects: Subject[] = [];
  try {
    for (const variant of VARIANTS) subjects.push(await prepare(variant));
    const loads: number[] = [];
    // A warm-up round each, not counted: plans, caches, the first pages of each partition.
    for (const subject of subjects) for (let b = 0; b < 2; b++) await subject.repository.write(batch());
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(loadavg()[0]);
      for (let k = 0; k < subjects.length; k++) {
        const subject = subjects[(round + k) % subjects.length];
        const batches = Array.from({ length: BATCHES }, batch);
        const before = backendCpuSeconds(subject.pid);
        for (const events of batches) subject.rows += (await subject.repository.write(events)).inserted;
        subject.cpuSeconds += backendCpuSeconds(subject.pid) - before;
      }
    }
    loads.push(loadavg()[0]);

    const results: Record<string, { us_per_row: number; bytes_per_row: Record<string, number> }> = {};
    process.stdout.write(
      `${ROUNDS} rounds × ${BATCHES} batches of ${BATCH} rows (${MIX} mix, ${PROJECT_COUNT} projects) per variant, rollups ${ROLLUPS ? 'on' : 'off'}; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}\n\n`,
    );
    for (const subject of subjects) {
      const { table, indexes } = await sizes(subject);
      const usPerRow = (subject.cpuSeconds * 1e6) / subject.rows;
      const bytes = Object.fromEntries(([['heap', table], ...Object.entries(indexes)] as Array<[string, number]>).map(([name, b]) => [name, Math.round(b / subject.rows)]));
      results[subject.name] = { us_per_row: Math.round(usPerRow * 100) / 100, bytes_per_row: bytes };
      const sizeText = Object.entries(bytes).map(([name, b]) => `${name} ${b}`).join(', ');
      process.stdout.write(`${subject.name.padEnd(42)} ${usPerRow.toFixed(2).padStart(6)} µs/row   bytes/row: ${sizeText}\n`);
    }
    const loadRange = [Math.min(...loads), Math.max(...loads)].map((l) => Math.round(l * 10) / 10);
    process.stdout.write(`${JSON.stringify({ bench: 'request-log-storage', batch: BATCH, mix: MIX, projects: PROJECT_COUNT, rollups: ROLLUPS, rows_per_variant: subjects[0]?.rows, load_average: loadRange, variants: results })}\n`);
  } finally {
    for (const subject of subjects) {
      await subject.pool.end().catch(() => undefined);
      await subject.database.drop().catch(() => undefined);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`request-log-storage bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
