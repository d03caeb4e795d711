/**
 * Data tables benchmark (`npm run bench -- data`).
 *
 * On a table of BENCH_DATA_ROWS (1,000,000) rows in a data database of its own:
 *   1. through a gateway process, against bare node:http + pg (bench/data-tables/raw-data-server.js)
 *      running the same statement on the same table with a pool of the same size (DATA_POOL_SIZE):
 *      `get_row` by id → respond, `query_rows` on an indexed column (limit 10) → respond, and
 *      `insert_row` → respond; each gateway run right after a raw run of its own, ratio to it.
 *      Goals: reads ≥ 0.5×, insert ≥ 0.4×, gateway p99 < 10 ms at BENCH_CONNECTIONS (16).
 *   2. the plan of the indexed query (EXPLAIN): an index scan;
 *   3. schema changes on the million rows while a reader reads rows one after the other: how
 *      long each change took and the longest a read waited meanwhile;
 *   4. the storage alternatives of docs/decisions.md on the same rows: one shared table of JSONB
 *      rows with expression indexes (with and without row-level security), sequential latency of
 *      the same two reads, size on disk, and the cost of renaming a field there.
 * Prints one JSON line `{"bench":"data-tables",…}`. Env: BENCH_DATA_ROWS, BENCH_SECONDS (10),
 * BENCH_CONNECTIONS (16), REDIS_URL, DATABASE_URL (the server the bench database goes on).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DataColumn, PublishedProject } from '@flowgate/contracts';
import { ColumnChange, createDataPool, createTableStorage, inTransaction, planColumns, qualifiedTable, setupDataDatabase, writeDataLimits } from '@flowgate/data-tables';
import { type AppProcess, createThrowawayDatabase, DEPLOYMENT_NODE_FLAGS, freePort, publishedRoute, startProcess, TestPublisher, waitReady } from '@flowgate/testing';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';

const ROOT = path.resolve(__dirname, '..');
const ROWS = Number(process.env.BENCH_DATA_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const POOL_SIZE = 10;
const WARMUP_SECONDS = 2;
/** Rows per score value: the indexed query finds 10. */
const SCORES = Math.max(1, Math.floor(ROWS / 10));

const COLUMNS: DataColumn[] = [
  { name: 'email', type: 'text', required: true, unique: true, indexed: false },
  { name: 'score', type: 'number', required: false, unique: false, indexed: true },
  { name: 'name', type: 'text', required: false, unique: false, indexed: false },
];

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = require('autocannon') as Autocannon;

interface Shot {
  method: 'GET' | 'POST';
  path: () => string;
  body?: () => string;
}

interface Measured {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
}

async function hammer(port: number, host: string | null, shot: Shot, seconds: number): Promise<Measured> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(host ? { host } : {}) };
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests: [
      {
        method: shot.method,
        setupRequest: (request: Record<string, unknown>) => ({ ...request, path: shot.path(), ...(shot.body ? { body: shot.body() } : {}) }),
      },
    ],
  });
  return { rps: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99, non2xx: result.non2xx + result.errors };
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const ms = (start: bigint): number => Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100;

async function loadRows(pool: Pool, from: string): Promise<number> {
  const start = process.hrtime.bigint();
  const chunk = 100_000;
  for (let first = 1; first <= ROWS; first += chunk) {
    const last = Math.min(ROWS, first + chunk - 1);
    await pool.query(
      `INSERT INTO ${from} ("id", "email", "score", "name") SELECT gen_random_uuid(), 'user' || n || '@bench.test', n % ${SCORES}, 'Name ' || n FROM generate_series(${first}, ${last}) n`,
    );
  }
  await pool.query(`ANALYZE ${from}`);
  return ms(start);
}

/** Reads rows one after the other while `work` runs; the longest wait of one read. */
async function whileReading(pool: Pool, from: string, ids: string[], work: () => Promise<void>): Promise<{ took_ms: number; longest_read_ms: number; reads: number }> {
  let running = true;
  let longest = 0;
  let reads = 0;
  const reader = (async () => {
    while (running) {
      const start = process.hrtime.bigint();
      await pool.query(`SELECT * FROM ${from} WHERE "id" = $1`, [pick(ids)]);
      longest = Math.max(longest, ms(start));
      reads++;
    }
  })();
  const start = process.hrtime.bigint();
  await work();
  const took = ms(start);
  running = false;
  await reader;
  return { took_ms: took, longest_read_ms: longest, reads };
}

async function sequentialMs(pool: Pool, runs: number, query: () => Promise<unknown>): Promise<number> {
  for (let index = 0; index < 200; index++) await query();
  const start = process.hrtime.bigint();
  for (let index = 0; index < runs; index++) await query();
  return Math.round((ms(start) / runs) * 1000) / 1000;
}

async function main(): Promise<void> {
  const database = await createThrowawayDatabase('flowgate_bench_data', process.env.DATABASE_URL);
  const pool = createDataPool({ url: database.url, max: POOL_SIZE, applicationName: 'flowgate-bench' });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const publisher = new TestPublisher(redis);
  const services: AppProcess[] = [];
  try {
    await setupDataDatabase(pool);
    await writeDataLimits(pool, { maxRowsPerProject: ROWS * 10, maxBytesPerProject: 1e12, maxBytesPerRow: 65_536 });
    const location = { projectId: randomUUID(), tableId: randomUUID() };
    await inTransaction(pool, (client) => createTableStorage(client, location, COLUMNS));
    const from = qualifiedTable(location);
    process.stdout.write(`data-tables benchmark: ${ROWS.toLocaleString('en')} rows, ${CONNECTIONS} connections, ${SECONDS} s per target, pool ${POOL_SIZE}\n`);
    const loadMs = await loadRows(pool, from);
    process.stdout.write(`loaded in ${Math.round(loadMs / 100) / 10} s\n`);
    const ids = (await pool.query<{ id: string }>(`SELECT "id" FROM ${from} TABLESAMPLE SYSTEM (1) LIMIT 5000`)).rows.map((row) => row.id);
    const select = ['id', 'created_at', 'updated_at', ...COLUMNS.map((column) => column.name)].map((name) => `"${name}"`).join(', ');
    const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT ${select} FROM ${from} WHERE "score" = $1::double precision ORDER BY "id" ASC LIMIT $2`, [7, 11])).rows
      .map((row) => row['QUERY PLAN'])
      .join(' | ');
    process.stdout.write(`plan of query_rows on the indexed column: ${plan}\n`);

    const project: PublishedProject = publisher.newProject(
      [
        publishedRoute({ path: '/person', query_params: [{ key: 'id', default: null }], blocks: [{ type: 'get_row', config: { table: 'people', id: '{params.id}', ref: 'row' } }, { type: 'respond', config: { status: 200, body: { row: '{result.row}' } } }] }),
        publishedRoute({
          path: '/people',
          query_params: [{ key: 'score', default: null }],
          blocks: [
            { type: 'query_rows', config: { table: 'people', filter: [{ column: 'score', operator: 'eq', value: '{params.score}' }], limit: 10, ref: 'found' } },
            { type: 'respond', config: { status: 200, body: { rows: '{result.found.rows}' } } },
          ],
        }),
        publishedRoute({
          path: '/people',
          method: 'POST',
          blocks: [
            { type: 'insert_row', config: { table: 'people', values: { email: '{body.email}', score: '{body.score}', name: '{body.name}' }, ref: 'row' } },
            { type: 'respond', config: { status: 200, body: '{result.row}' } },
          ],
        }),
      ],
      { tables: [{ id: location.tableId, name: 'people', columns: COLUMNS }] },
    );
    project.id = location.projectId;
    await publisher.publish(project);
    const host = `${project.subdomain}.localhost`;

    const [rawPort, gatewayPort] = [await freePort(), await freePort()];
    const raw = startProcess('raw', ['bench/data-tables/raw-data-server.js', String(rawPort)], { ...process.env, BENCH_RAW_CONFIG: JSON.stringify({ url: database.url, poolSize: POOL_SIZE, select, from }) }, ROOT);
    const gateway = startProcess(
      'gateway',
      [...DEPLOYMENT_NODE_FLAGS, 'scripts/run-ts.js', 'apps/gateway/src/main.ts'],
      {
        ...process.env,
        NODE_ENV: 'production',
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_HOST: '127.0.0.1',
        DATA_DATABASE_URL: database.url,
        DATA_POOL_SIZE: String(POOL_SIZE),
        KAFKA_LOG_TOPIC: 'flowgate.bench.request-logs',
        LOG_LEVEL: 'warn',
        FLOWGATE_SERVICE_TOKEN: randomBytes(24).toString('hex'),
        FLOWGATE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      },
      ROOT,
    );
    services.push(raw, gateway);
    const probe = `/person?id=${ids[0]}`;
    await Promise.all([waitReady(raw, `http://127.0.0.1:${rawPort}${probe}`), waitReady(gateway, `http://127.0.0.1:${gatewayPort}${probe}`, 60_000, { host })]);

    let sequence = 0;
    const shots: Record<'get_row' | 'query_rows' | 'insert_row', Shot> = {
      get_row: { method: 'GET', path: () => `/person?id=${pick(ids)}` },
      query_rows: { method: 'GET', path: () => `/people?score=${Math.floor(Math.random() * SCORES)}` },
      insert_row: {
        method: 'POST',
        path: () => '/people',
        body: () => JSON.stringify({ email: `new-${process.pid}-${Date.now()}-${sequence++}@bench.test`, score: sequence % SCORES, name: 'New' }),
      },
    };
    const results: Record<string, { raw: Measured; gateway: Measured; ratio: number }> = {};
    for (const [name, shot] of Object.entries(shots)) {
      await hammer(rawPort, null, shot, WARMUP_SECONDS);
      const rawRun = await hammer(rawPort, null, shot, SECONDS);
      await hammer(gatewayPort, host, shot, WARMUP_SECONDS);
      const gatewayRun = await hammer(gatewayPort, host, shot, SECONDS);
      results[name] = { raw: rawRun, gateway: gatewayRun, ratio: Math.round((gatewayRun.rps / rawRun.rps) * 100) / 100 };
      process.stdout.write(
        `${name}: raw ${rawRun.rps} req/s (p99 ${rawRun.p99_ms} ms), gateway ${gatewayRun.rps} req/s (p50 ${gatewayRun.p50_ms} ms, p99 ${gatewayRun.p99_ms} ms, non-2xx ${gatewayRun.non2xx}) → ${results[name]!.ratio}×\n`,
      );
    }
    await Promise.all(services.map((service) => service.stop()));
    services.length = 0;

    // 3. Schema changes on the loaded table while a reader goes on.
    const reader = createDataPool({ url: database.url, max: 1, applicationName: 'flowgate-bench-reader' });
    let applyMs = 0;
    const change = async (next: Array<DataColumn & { renamed_from?: string }>, current: DataColumn[]) => {
      const columnChange = new ColumnChange(pool, location, planColumns(current, next));
      await columnChange.prepare();
      const start = process.hrtime.bigint();
      await inTransaction(pool, (client) => columnChange.apply(client));
      applyMs = ms(start);
      await columnChange.finish();
    };
    const schemaChanges: Record<string, Awaited<ReturnType<typeof whileReading>> & { locked_ms: number }> = {};
    let columns = COLUMNS;
    const steps: Array<[string, Array<DataColumn & { renamed_from?: string }>]> = [
      ['add_column', [...COLUMNS, { name: 'extra', type: 'text', required: false, unique: false, indexed: false }]],
      ['rename_column', [...COLUMNS.filter((column) => column.name !== 'name'), { name: 'full_name', type: 'text', required: false, unique: false, indexed: false, renamed_from: 'name' }, { name: 'extra', type: 'text', required: false, unique: false, indexed: false }]],
      ['index_column', [...COLUMNS.filter((column) => column.name !== 'name'), { name: 'full_name', type: 'text', required: false, unique: false, indexed: true }, { name: 'extra', type: 'text', required: false, unique: false, indexed: false }]],
      ['change_type_number_to_text', [COLUMNS[0]!, { ...COLUMNS[1]!, type: 'text' }, { name: 'full_name', type: 'text', required: false, unique: false, indexed: true }, { name: 'extra', type: 'text', required: false, unique: false, indexed: false }]],
      ['drop_column', [COLUMNS[0]!, { ...COLUMNS[1]!, type: 'text' }, { name: 'full_name', type: 'text', required: false, unique: false, indexed: true }]],
    ];
    for (const [name, next] of steps) {
      schemaChanges[name] = { ...(await whileReading(reader, from, ids, () => change(next, columns))), locked_ms: applyMs };
      columns = next.map(({ renamed_from: _renamed, ...column }) => column);
      const measured = schemaChanges[name]!;
      process.stdout.write(`${name}: took ${measured.took_ms} ms (of which the short locked part ${measured.locked_ms} ms), longest read meanwhile ${measured.longest_read_ms} ms (${measured.reads} reads)\n`);
    }
    await reader.end();

    // 4. The alternatives: one shared table of JSONB rows.
    await pool.query(`
      CREATE TABLE alt_rows (project_id uuid NOT NULL, table_id uuid NOT NULL, id uuid NOT NULL, data jsonb NOT NULL, PRIMARY KEY (project_id, table_id, id));
      INSERT INTO alt_rows SELECT '${location.projectId}', '${location.tableId}', "id", jsonb_build_object('email', "email", 'score', "score"::double precision, 'full_name', "full_name") FROM ${from};
      CREATE INDEX alt_rows_score ON alt_rows (project_id, table_id, ((data->>'score')::double precision));
      ANALYZE alt_rows;
      ALTER TABLE alt_rows ENABLE ROW LEVEL SECURITY;
      CREATE POLICY alt_rows_project ON alt_rows USING (project_id = current_setting('flowgate.project')::uuid);
      DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'flowgate_bench_rls') THEN CREATE ROLE flowgate_bench_rls; END IF; END $$;
      GRANT SELECT ON alt_rows TO flowgate_bench_rls;`);
    const client = await pool.connect();
    const alternatives: Record<string, number | string> = {};
    try {
      alternatives.table_per_user_table_get_ms = await sequentialMs(pool, 500, () => client.query(`SELECT ${select.replace('"name"', '"full_name"').replace('"score"', '"score"')} FROM ${from} WHERE "id" = $1`, [pick(ids)]));
      alternatives.table_per_user_table_query_ms = await sequentialMs(pool, 500, () =>
        client.query(`SELECT * FROM ${from} WHERE "score" = $1 ORDER BY "id" LIMIT 11`, [String(Math.floor(Math.random() * SCORES))]),
      );
      alternatives.jsonb_shared_get_ms = await sequentialMs(pool, 500, () =>
        client.query('SELECT id, data FROM alt_rows WHERE project_id = $1 AND table_id = $2 AND id = $3', [location.projectId, location.tableId, pick(ids)]),
      );
      alternatives.jsonb_shared_query_ms = await sequentialMs(pool, 500, () =>
        client.query(`SELECT id, data FROM alt_rows WHERE project_id = $1 AND table_id = $2 AND (data->>'score')::double precision = $3 ORDER BY id LIMIT 11`, [
          location.projectId,
          location.tableId,
          Math.floor(Math.random() * SCORES),
        ]),
      );
      // Row-level security needs the project set per transaction: BEGIN, set_config, the query, COMMIT.
      alternatives.jsonb_rls_get_ms = await sequentialMs(pool, 500, async () => {
        await client.query('BEGIN');
        await client.query("SELECT set_config('flowgate.project', $1, true), set_config('role', 'flowgate_bench_rls', true)", [location.projectId]);
        await client.query('SELECT id, data FROM alt_rows WHERE table_id = $1 AND id = $2', [location.tableId, pick(ids)]);
        await client.query('COMMIT');
      });
      const size = async (relation: string) => Math.round(Number((await client.query('SELECT pg_total_relation_size($1::regclass) AS n', [relation])).rows[0].n) / 1048576);
      alternatives.table_per_user_table_mb = await size(from);
      alternatives.jsonb_shared_mb = await size('alt_rows');
      const start = process.hrtime.bigint();
      await client.query(`UPDATE alt_rows SET data = data - 'full_name' || jsonb_build_object('display_name', data->'full_name')`);
      alternatives.jsonb_rename_field_ms = ms(start);
    } finally {
      client.release();
    }
    process.stdout.write(`alternatives: ${JSON.stringify(alternatives)}\n`);

    const summary = {
      bench: 'data-tables',
      rows: ROWS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      load_s: Math.round(loadMs / 100) / 10,
      get_row: results.get_row,
      query_rows: results.query_rows,
      insert_row: results.insert_row,
      index_scan: /Index Scan|Bitmap Index Scan/.test(plan),
      schema_changes: schemaChanges,
      alternatives,
      targets: {
        get_row_ratio_ge_0_5: results.get_row!.ratio >= 0.5,
        query_rows_ratio_ge_0_5: results.query_rows!.ratio >= 0.5,
        insert_row_ratio_ge_0_4: results.insert_row!.ratio >= 0.4,
        p99_lt_10_ms: Object.values(results).every((result) => result.gateway.p99_ms < 10),
      },
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await publisher.cleanup();
    redis.disconnect();
    await pool.end();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`data-tables bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
