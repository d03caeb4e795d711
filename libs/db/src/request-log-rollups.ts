import type { PartitionDb } from './request-log-partitions';

/** Spans of request_log_rollups rows, in seconds. */
export const ROLLUP_MINUTE = 60;
export const ROLLUP_HOUR = 3600;

/**
 * INSERT … SELECT that adds the rows of `source` (a relation or subquery with the columns
 * project_id, environment, time, method, status, duration_ms) to request_log_rollups as shard
 * `shard`: per minute and per hour, per environment, for the project and per method and status. log-ingest computes
 * the same cells in JavaScript for the rows it inserts (apps/log-ingest/src/request-log.rollups.ts;
 * a test compares the two); this is the rebuild from stored rows (seeding, backfills).
 */
export function rollupInsertSql(source: string, shard = 0): string {
  return `
INSERT INTO request_log_rollups AS r (project_id, span_s, environment, bucket, method, status, shard, count, errors, latency_histogram)
SELECT project_id, span_s, environment, bucket, method, status, ${Number(shard)}, sum(n)::int, sum(e)::int, jsonb_object_agg(lb, n)
  FROM (SELECT project_id, span_s, environment, bucket, coalesce(method, '') AS method, coalesce(status, 0) AS status,
               lb, count(*) AS n, count(*) FILTER (WHERE code >= 400) AS e
          FROM (SELECT s.project_id, g.span_s, s.environment, date_bin(make_interval(secs => g.span_s), s.time, timestamptz '1970-01-01Z') AS bucket,
                       s.method, s.status, s.status AS code, flowgate_latency_bucket(s.duration_ms::real) AS lb
                  FROM ${source} AS s CROSS JOIN (VALUES (${ROLLUP_MINUTE}), (${ROLLUP_HOUR})) AS g(span_s)) AS rows
         GROUP BY GROUPING SETS ((project_id, span_s, environment, bucket, lb), (project_id, span_s, environment, bucket, method, status, lb))) AS cells
 GROUP BY project_id, span_s, environment, method, status, bucket
ON CONFLICT (project_id, span_s, environment, method, status, bucket, shard) DO UPDATE
   SET count = r.count + EXCLUDED.count,
       errors = r.errors + EXCLUDED.errors,
       latency_histogram = flowgate_merge_latency_histograms(r.latency_histogram, EXCLUDED.latency_histogram)`;
}

/**
 * Retention of the rollups, with the cutoff of the rows: deletes those of days before
 * `cutoffDay` (UTC, `YYYY-MM-DD`). Called by maintainRequestLogPartitions.
 */
export async function dropRequestLogRollupsOlderThan(db: PartitionDb, cutoffDay: string): Promise<number> {
  const sql = `WITH gone AS (DELETE FROM request_log_rollups WHERE bucket < $1::date::timestamp AT TIME ZONE 'UTC' RETURNING 1)
               SELECT count(*)::int AS deleted FROM gone`;
  const params = [cutoffDay];
  const rows: Array<{ deleted: number }> =
    '$queryRawUnsafe' in db ? await db.$queryRawUnsafe<Array<{ deleted: number }>>(sql, ...params) : (await db.query<{ deleted: number }>(sql, params)).rows;
  return rows[0]?.deleted ?? 0;
}
