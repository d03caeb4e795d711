import { randomUUID } from 'node:crypto';
import { Client, Pool, type PoolClient } from 'pg';
import { latencyBucketOf } from './latency-histogram';
import { migrate } from './migrate';
import { maintainRequestLogPartitions } from './request-log-partitions';
import { FOLD_BATCH_DELTAS, foldRequestLogRollupDeltas, rollupInsertSql } from './request-log-rollups';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@flowgate/testing';

describe('request_log_rollups (real PostgreSQL)', () => {
  let database: ThrowawayDatabase;
  let client: Client;
  let pool: Pool;

  beforeAll(async () => {
    database = await createThrowawayDatabase('flowgate_rollups');
    await migrate(database.url, { quiet: true });
    client = new Client({ connectionString: database.url });
    await client.connect();
    pool = new Pool({ connectionString: database.url, max: 2 });
  });

  afterAll(async () => {
    await client?.end();
    await pool?.end();
    await database?.drop();
  });

  /** Appends a delta as log-ingest does: `latencies` is bucket → count. */
  const appendDelta = (project: string, bucket: string, method: string, status: number, latencies: Record<number, number>) =>
    client.query(
      `INSERT INTO request_log_rollup_deltas (project_id, environment, bucket, method, status, write_id, count, latency_buckets, latency_counts)
       VALUES ($1, 'live', $2, $3, $4, gen_random_uuid(), $5, $6, $7)`,
      [project, bucket, method, status, Object.values(latencies).reduce((a, b) => a + b, 0), Object.keys(latencies), Object.values(latencies)],
    );

  /** The project's rollups as a reader sees them: folded cells plus the deltas not folded yet, per minute and hour. */
  const readerView = async (project: string) =>
    (
      await client.query(
        `SELECT span_s, bucket, method, status, sum(count)::int AS count, sum(errors)::int AS errors FROM (
           SELECT span_s, bucket, method, status, count, errors FROM request_log_rollups WHERE project_id = $1
           UNION ALL
           SELECT g.span_s, date_bin(make_interval(secs => g.span_s), bucket, timestamptz '1970-01-01Z'), m.method, m.status, d.count,
                  CASE WHEN d.status >= 400 THEN d.count ELSE 0 END
             FROM request_log_rollup_deltas AS d CROSS JOIN (VALUES (60), (3600)) AS g(span_s)
                  CROSS JOIN LATERAL (VALUES (d.method, d.status), ('', 0)) AS m(method, status)
            WHERE d.project_id = $1) AS cells
          GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
        [project],
      )
    ).rows;

  it('buckets latencies in SQL exactly as the TypeScript that reads the histograms', async () => {
    const values: number[] = [0, 0.005, 0.01, 0.0108, 0.5, 1, 2.5, 99.99, 100, 1234.5, 60_000, 1e9];
    for (let ms = 0.011; ms < 100_000; ms *= 1.37) values.push(Math.fround(ms));
    const { rows } = await client.query<{ ms: number; bucket: number }>(
      'SELECT ms, flowgate_latency_bucket(ms) AS bucket FROM unnest($1::real[]) AS ms',
      [values],
    );
    expect(rows.map((r) => r.bucket)).toEqual(values.map((ms) => latencyBucketOf(Math.fround(ms))));
  });

  it('rolls up a relation of request rows, adding to what is there', async () => {
    const project = randomUUID();
    const source = `(SELECT $1::uuid AS project_id, 'live'::text AS environment, t::timestamptz AS time, 'GET'::text AS method,
                            s::smallint AS status, 3::real AS duration_ms
                       FROM unnest(ARRAY['2031-01-01T00:00:10Z', '2031-01-01T00:59:00Z'], ARRAY[200, 503]) AS v(t, s))`;
    await client.query(rollupInsertSql(source), [project]);
    await client.query(rollupInsertSql(source), [project]);
    const { rows } = await client.query(
      `SELECT count, errors, latency_histogram FROM request_log_rollups WHERE project_id = $1 AND span_s = 3600 AND method = ''`,
      [project],
    );
    expect(rows).toEqual([{ count: 4, errors: 2, latency_histogram: { [latencyBucketOf(3)]: 4 } }]);
    await client.query('DELETE FROM request_log_rollups WHERE project_id = $1', [project]);
  });

  it('folds the deltas into the minute and hour cells of the project and of each method and status, and deletes them', async () => {
    const project = randomUUID();
    await appendDelta(project, '2032-02-01T10:00:00Z', 'GET', 200, { 60: 2, 61: 1 });
    await appendDelta(project, '2032-02-01T10:00:00Z', 'GET', 200, { 60: 1 }); // the same cell from another write
    await appendDelta(project, '2032-02-01T10:59:00Z', 'POST', 503, { 120: 1 });
    expect(await foldRequestLogRollupDeltas(pool)).toBeGreaterThan(0);
    const { rows } = await client.query(
      `SELECT span_s, bucket, method, status, count, errors, latency_histogram FROM request_log_rollups WHERE project_id = $1 ORDER BY span_s, method, status, bucket`,
      [project],
    );
    const at = (iso: string) => new Date(iso);
    expect(rows).toEqual([
      { span_s: 60, bucket: at('2032-02-01T10:00:00Z'), method: '', status: 0, count: 4, errors: 0, latency_histogram: { 60: 3, 61: 1 } },
      { span_s: 60, bucket: at('2032-02-01T10:59:00Z'), method: '', status: 0, count: 1, errors: 1, latency_histogram: { 120: 1 } },
      { span_s: 60, bucket: at('2032-02-01T10:00:00Z'), method: 'GET', status: 200, count: 4, errors: 0, latency_histogram: { 60: 3, 61: 1 } },
      { span_s: 60, bucket: at('2032-02-01T10:59:00Z'), method: 'POST', status: 503, count: 1, errors: 1, latency_histogram: { 120: 1 } },
      { span_s: 3600, bucket: at('2032-02-01T10:00:00Z'), method: '', status: 0, count: 5, errors: 1, latency_histogram: { 60: 3, 61: 1, 120: 1 } },
      { span_s: 3600, bucket: at('2032-02-01T10:00:00Z'), method: 'GET', status: 200, count: 4, errors: 0, latency_histogram: { 60: 3, 61: 1 } },
      { span_s: 3600, bucket: at('2032-02-01T10:00:00Z'), method: 'POST', status: 503, count: 1, errors: 1, latency_histogram: { 120: 1 } },
    ]);
    expect((await client.query('SELECT 1 FROM request_log_rollup_deltas WHERE project_id = $1', [project])).rows).toEqual([]);

    // A later fold adds to the cells.
    await appendDelta(project, '2032-02-01T10:00:30Z', 'GET', 200, { 61: 2 });
    await foldRequestLogRollupDeltas(pool);
    const hour = await client.query(`SELECT count, latency_histogram FROM request_log_rollups WHERE project_id = $1 AND span_s = 3600 AND method = ''`, [project]);
    expect(hour.rows).toEqual([{ count: 7, latency_histogram: { 60: 3, 61: 3, 120: 1 } }]);
  });

  it('loses and doubles nothing when the fold dies before it commits: the deltas stay for the next fold', async () => {
    const project = randomUUID();
    await appendDelta(project, '2032-03-01T08:00:00Z', 'GET', 200, { 50: 3 });
    await foldRequestLogRollupDeltas(pool);
    await appendDelta(project, '2032-03-01T08:01:00Z', 'GET', 500, { 70: 2 });
    await appendDelta(project, '2032-03-01T08:00:00Z', 'GET', 200, { 50: 1 });
    const before = await readerView(project);
    // The fold's statement has run (deltas deleted, cells updated, all uncommitted) when its
    // server process is killed, as a crash of log-ingest or of the server would end it.
    const dying = {
      connect: async () => {
        const real: PoolClient = await pool.connect();
        const query = real.query.bind(real) as (...args: unknown[]) => Promise<unknown>;
        return Object.assign(Object.create(real) as PoolClient, {
          query: async (...args: unknown[]) => {
            if (args[0] === 'COMMIT') {
              const { rows } = await real.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
              await client.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
            }
            return query(...args);
          },
          release: (error?: Error) => real.release(error),
        });
      },
    };
    await expect(foldRequestLogRollupDeltas(dying)).rejects.toThrow();
    expect(await readerView(project)).toEqual(before);
    expect((await client.query('SELECT count(*)::int AS n FROM request_log_rollup_deltas WHERE project_id = $1', [project])).rows).toEqual([{ n: 2 }]);
    await foldRequestLogRollupDeltas(pool);
    expect(await readerView(project)).toEqual(before);
    const minute = await client.query(`SELECT count FROM request_log_rollups WHERE project_id = $1 AND span_s = 60 AND method = '' ORDER BY bucket`, [project]);
    expect(minute.rows).toEqual([{ count: 4 }, { count: 2 }]);
  });

  it('folds a backlog larger than one transaction takes in several, every delta counted once', async () => {
    const projects = [randomUUID(), randomUUID()];
    const backlog = FOLD_BATCH_DELTAS + 1_500;
    // Deltas of two projects over three minutes, two latency buckets each (one request in each).
    await client.query(
      `INSERT INTO request_log_rollup_deltas (project_id, environment, bucket, method, status, write_id, count, latency_buckets, latency_counts)
       SELECT ($1::uuid[])[1 + g % 2], 'live', timestamptz '2033-04-01T09:00:00Z' + (g % 3) * interval '1 minute', 'GET', CASE WHEN g % 5 = 0 THEN 500 ELSE 200 END,
              gen_random_uuid(), 2, ARRAY[40, 41 + g % 2]::smallint[], ARRAY[1, 1]
         FROM generate_series(0, $2 - 1) AS g`,
      [projects, backlog],
    );
    expect(await foldRequestLogRollupDeltas(pool)).toBeGreaterThan(0);
    expect((await client.query('SELECT count(*)::int AS n FROM request_log_rollup_deltas')).rows).toEqual([{ n: 0 }]);
    const { rows } = await client.query(
      `SELECT sum(count)::int AS count, sum(errors)::int AS errors FROM request_log_rollups WHERE project_id = ANY($1::uuid[]) AND span_s = 3600 AND method = ''`,
      [projects],
    );
    expect(rows).toEqual([{ count: 2 * backlog, errors: 2 * Math.ceil(backlog / 5) }]);
    await client.query('DELETE FROM request_log_rollups WHERE project_id = ANY($1::uuid[])', [projects]);
  });

  it('keeps the rollups as long as the rows: the retention job deletes those of the days it drops', async () => {
    const project = randomUUID();
    await client.query(
      `INSERT INTO request_log_rollups (project_id, span_s, bucket, method, status, shard, count, errors, latency_histogram)
       SELECT $1, 60, b::timestamptz, '', 0, 0, 1, 0, '{"1":1}' FROM unnest($2::text[]) AS b`,
      [project, ['2031-05-07T23:59:00Z', '2031-05-08T00:00:00Z', '2031-05-10T12:00:00Z']],
    );
    await appendDelta(project, '2031-05-07T12:00:00Z', 'GET', 200, { 1: 1 }); // not folded, of a dropped day
    await appendDelta(project, '2031-05-09T12:00:00Z', 'GET', 200, { 1: 1 });
    const result = await maintainRequestLogPartitions(client, { today: '2031-05-10', retentionDays: 3, daysAhead: 1 });
    expect(result.rollupsDeleted).toBe(2);
    const left = await client.query<{ bucket: Date }>('SELECT bucket FROM request_log_rollup_deltas WHERE project_id = $1', [project]);
    expect(left.rows.map((r) => r.bucket.toISOString())).toEqual(['2031-05-09T12:00:00.000Z']);
    const { rows } = await client.query<{ bucket: Date }>('SELECT bucket FROM request_log_rollups WHERE project_id = $1 ORDER BY bucket', [project]);
    expect(rows.map((r) => r.bucket.toISOString())).toEqual(['2031-05-08T00:00:00.000Z', '2031-05-10T12:00:00.000Z']);
  });
});
