import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { latencyBucketOf } from './latency-histogram';
import { migrate } from './migrate';
import { maintainRequestLogPartitions } from './request-log-partitions';
import { rollupInsertSql } from './request-log-rollups';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@flowgate/testing';

describe('request_log_rollups (real PostgreSQL)', () => {
  let database: ThrowawayDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createThrowawayDatabase('flowgate_rollups');
    await migrate(database.url, { quiet: true });
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

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

  it('keeps the rollups as long as the rows: the retention job deletes those of the days it drops', async () => {
    const project = randomUUID();
    await client.query(
      `INSERT INTO request_log_rollups (project_id, span_s, bucket, method, status, shard, count, errors, latency_histogram)
       SELECT $1, 60, b::timestamptz, '', 0, 0, 1, 0, '{"1":1}' FROM unnest($2::text[]) AS b`,
      [project, ['2031-05-07T23:59:00Z', '2031-05-08T00:00:00Z', '2031-05-10T12:00:00Z']],
    );
    const result = await maintainRequestLogPartitions(client, { today: '2031-05-10', retentionDays: 3, daysAhead: 1 });
    expect(result.rollupsDeleted).toBe(1);
    const { rows } = await client.query<{ bucket: Date }>('SELECT bucket FROM request_log_rollups WHERE project_id = $1 ORDER BY bucket', [project]);
    expect(rows.map((r) => r.bucket.toISOString())).toEqual(['2031-05-08T00:00:00.000Z', '2031-05-10T12:00:00.000Z']);
  });
});
