/**
 * Seeds request_logs of one project with synthetic traffic, fast: the secondary indexes are
 * dropped, rows are generated inside PostgreSQL (INSERT … SELECT generate_series, in chunks on
 * two connections), and the indexes are rebuilt from their own definitions afterwards. The
 * stats rollups are then built from the rows (the same cells log-ingest writes, by the SQL
 * rebuild of libs/db/src/request-log-rollups.ts), one day per statement on both connections.
 * Only for bench databases: it rebuilds the table's indexes.
 *
 *   node scripts/run-ts.js bench/logs-api/seed-request-logs.ts <DATABASE_URL> <project-id> [rows]
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureRequestLogPartitions, rollupInsertSql } from '@flowgate/db';
import { Pool } from 'pg';

export interface SeedOptions {
  projectId: string;
  rows: number;
  /** Rows are spread evenly over this many days up to `end`. */
  days?: number;
  end?: Date;
}

/** 40 endpoints with a skewed popularity; a quarter of the traffic uses the /api/ form. */
export const SEED_PATHS = Array.from({ length: 40 }, (_, i) => `/endpoint-${i}`);
const METHODS = ['GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE'];

const CHUNK = 250_000;

export async function seedRequestLogs(databaseUrl: string, options: SeedOptions): Promise<{ seconds: number }> {
  const started = performance.now();
  const days = options.days ?? 30;
  const end = options.end ?? new Date();
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const from = new Date(end.getTime() - days * 86_400_000);
    await ensureRequestLogPartitions(pool, from, days + 2);

    const { rows: indexes } = await pool.query<{ name: string; definition: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'request_logs'::regclass AND NOT i.indisprimary`,
    );
    for (const index of indexes) await pool.query(`DROP INDEX "${index.name}"`);

    const stepMs = (days * 86_400_000) / options.rows;
    const chunks: Array<[number, number]> = [];
    for (let first = 1; first <= options.rows; first += CHUNK) chunks.push([first, Math.min(options.rows, first + CHUNK - 1)]);
    const insert = async ([first, last]: [number, number]) =>
      pool.query(
        `INSERT INTO request_logs (id, time, project_id, endpoint_id, path, method, status, code, duration_ms, key_id)
         SELECT gen_random_uuid(), $1::timestamptz - (g * $2::float8) * interval '1 millisecond', $3::uuid, NULL,
                CASE WHEN r.alias < 0.25 THEN '/api' ELSE '' END || ($4::text[])[1 + floor(power(r.popularity, 2) * 40)::int],
                ($5::text[])[1 + floor(r.method * 12)::int],
                s.status,
                CASE s.status WHEN 200 THEN NULL WHEN 400 THEN 'invalid_request' WHEN 401 THEN 'invalid_api_key'
                              WHEN 404 THEN 'endpoint_not_found' WHEN 429 THEN 'rate_limited' ELSE 'flow_error' END,
                round((5 + power(r.duration, 3) * 400)::numeric, 2)::real,
                CASE WHEN r.keyed < 0.8 THEN ('00000000-0000-4000-8000-' || lpad((floor(r.keyed * 50))::int::text, 12, '0'))::uuid END
           FROM generate_series($6::int, $7::int) AS g
           CROSS JOIN LATERAL (SELECT random() AS alias, random() AS popularity, random() AS method, random() AS outcome,
                                      random() AS duration, random() AS keyed, g AS n) AS r
           CROSS JOIN LATERAL (SELECT CASE WHEN r.outcome < 0.90 THEN 200 WHEN r.outcome < 0.93 THEN 400 WHEN r.outcome < 0.95 THEN 401
                                           WHEN r.outcome < 0.97 THEN 404 WHEN r.outcome < 0.985 THEN 429 ELSE 500 END AS status) AS s`,
        [end, stepMs, options.projectId, SEED_PATHS, METHODS, first, last],
      );
    // Two connections, one chunk each at a time (the machine this targets has two cores).
    const queue = [...chunks];
    await Promise.all([0, 1].map(async () => {
      for (let chunk = queue.shift(); chunk; chunk = queue.shift()) await insert(chunk);
    }));

    const client = await pool.connect();
    try {
      await client.query(`SET maintenance_work_mem = '512MB'`);
      // pg_get_indexdef says `ON ONLY` for a partitioned index; without ONLY it is built on every partition.
      for (const index of indexes) await client.query(index.definition.replace(' ON ONLY ', ' ON '));
      await client.query('ANALYZE request_logs');
    } finally {
      client.release();
    }

    const rollup = rollupInsertSql(
      '(SELECT project_id, environment, time, method, status, duration_ms FROM request_logs WHERE project_id = $1 AND time >= $2 AND time < $3)',
    );
    // Chunks on whole hours: two statements never add to the same hourly cell (that would deadlock).
    const firstHour = Math.floor(from.getTime() / 3_600_000) * 3_600_000;
    const dayQueue = Array.from({ length: days + 1 }, (_, i) => firstHour + i * 86_400_000);
    await Promise.all([0, 1].map(async () => {
      for (let day = dayQueue.shift(); day !== undefined; day = dayQueue.shift()) {
        await pool.query(rollup, [options.projectId, new Date(day), new Date(day + 86_400_000)]);
      }
    }));
    await pool.query('ANALYZE request_log_rollups');
  } finally {
    await pool.end();
  }
  return { seconds: (performance.now() - started) / 1000 };
}

// Run directly (scripts/run-ts.js puts the entry file in argv[1]), not when imported by the bench.
if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  const [databaseUrl, projectId, rows] = process.argv.slice(2);
  if (!databaseUrl || !projectId) {
    process.stderr.write('usage: node scripts/run-ts.js bench/logs-api/seed-request-logs.ts <DATABASE_URL> <project-id> [rows]\n');
    process.exit(2);
  }
  seedRequestLogs(databaseUrl, { projectId, rows: Number(rows ?? 5_000_000) }).then(
    ({ seconds }) => process.stdout.write(`seeded in ${seconds.toFixed(1)} s\n`),
    (error: unknown) => {
      process.stderr.write(`seed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
