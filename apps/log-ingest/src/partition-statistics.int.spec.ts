import { randomInt, randomUUID } from 'node:crypto';
import { addDays, ensureRequestLogPartitions, requestLogPartitionName } from '@flowgate/db';
import { createLogger } from '@flowgate/platform';
import { makeEvent, waitFor } from '@flowgate/testing';
import { Pool } from 'pg';
import { PartitionStatistics } from './partition-statistics';
import { RequestLogRepository } from './request-log.repository';

describe('statistics of request-log partitions kept current by log-ingest (real PostgreSQL)', () => {
  let pool: Pool;
  // A day of the suite's own, far ahead: its partition is created and dropped here.
  const day = addDays('2200-01-01', randomInt(0, 36_000));
  const partition = requestLogPartitionName(day);
  const projectId = randomUUID();
  const analysed = async () =>
    (await pool.query<{ analysed: boolean; reltuples: number }>(
      `SELECT s.last_analyze IS NOT NULL AS analysed, c.reltuples::float8 AS reltuples
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = $1`,
      [partition],
    )).rows[0];

  beforeAll(async () => {
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
    await ensureRequestLogPartitions(pool, day, 1);
  });

  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${partition}`);
    await pool.query('DELETE FROM request_log_rollups WHERE project_id = $1', [projectId]);
    await pool.query('DELETE FROM request_log_rollup_deltas WHERE project_id = $1', [projectId]);
    await pool.end();
  });

  const batch = (size: number) => Array.from({ length: size }, (_, i) => makeEvent({ project_id: projectId, time: `${day}T10:00:${String(i % 60).padStart(2, '0')}.000Z` }));

  it('analyses a new partition once it took enough rows, and again as it grows, without autovacuum', async () => {
    await pool.query(`ALTER TABLE ${partition} SET (autovacuum_enabled = false)`);
    const repository = new RequestLogRepository(pool, { statistics: new PartitionStatistics(pool, createLogger('test', 'silent'), { minRows: 200, growth: 0.5 }) });

    await repository.write(batch(150));
    expect((await analysed())?.analysed).toBe(false);

    await repository.write(batch(100));
    const first = await waitFor(async () => {
      const state = await analysed();
      return state?.analysed === true && state.reltuples > 0 ? state : undefined;
    }, `ANALYZE of ${partition}`);
    expect(first.reltuples).toBe(250);

    await repository.write(batch(300));
    await waitFor(async () => (await analysed())?.reltuples === 550 || undefined, `a second ANALYZE of ${partition} counting 550 rows`);
  });
});
