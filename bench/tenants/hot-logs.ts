import { ensureRequestLogPartitions, requestLogPartitionName, toUtcDay } from '@flowgate/db';
import { createLogger } from '@flowgate/platform';
import { makeEvent, waitFor } from '@flowgate/testing';
import { Pool } from 'pg';
import { PartitionStatistics } from '../../apps/log-ingest/src/partition-statistics';
import { RequestLogRepository } from '../../apps/log-ingest/src/request-log.repository';

const STATUSES = [200, 200, 200, 201, 400, 404, 500];

/**
 * Writes `rows` request-log rows of one project into today's partition through log-ingest's
 * own repository (COPY, rollups), autovacuum off for the partition, with no statistics kept
 * yet: the state of a new partition nobody analysed. `analyse()` then tells log-ingest's
 * PartitionStatistics those rows, as log-ingest does after each commit, and waits for the
 * ANALYZE it starts.
 */
export async function fillHotProject(databaseUrl: string, projectId: string, rows: number): Promise<{ analyse(): Promise<void> }> {
  const pool = new Pool({ connectionString: databaseUrl, max: 4 });
  const today = new Date();
  const partition = requestLogPartitionName(today);
  try {
    await ensureRequestLogPartitions(pool, today, 1);
    await pool.query(`ALTER TABLE ${partition} SET (autovacuum_enabled = false)`);
    const repository = new RequestLogRepository(pool);
    const start = Date.now() - 60_000;
    for (let written = 0; written < rows; written += 5000) {
      const size = Math.min(5000, rows - written);
      await repository.write(
        Array.from({ length: size }, (_, i) => {
          const n = written + i;
          return makeEvent({ project_id: projectId, status: STATUSES[n % STATUSES.length]!, path: `/endpoint-${n % 5}`, time: new Date(start + (n % 60_000)).toISOString() });
        }),
      );
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    analyse: async () => {
      try {
        new PartitionStatistics(pool, createLogger('bench', 'warn')).written(toUtcDay(today), rows);
        await waitFor(
          async () => (await pool.query<{ analysed: boolean }>('SELECT last_analyze IS NOT NULL AS analysed FROM pg_stat_user_tables WHERE relname = $1', [partition])).rows[0]?.analysed,
          `ANALYZE of ${partition} by log-ingest's statistics`,
          120_000,
        );
      } finally {
        await pool.end();
      }
    },
  };
}
