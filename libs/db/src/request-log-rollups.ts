import type { Pool, PoolClient } from 'pg';
import type { PartitionDb } from './request-log-partitions';

/** Spans of request_log_rollups rows, in seconds. */
export const ROLLUP_MINUTE = 60;
export const ROLLUP_HOUR = 3600;

/**
 * INSERT … SELECT that adds weighted request rows to request_log_rollups as shard `shard`: per
 * minute and per hour, per environment, for the project and per method and status. `source` is a
 * relation or subquery with the columns project_id, environment, time, method, status,
 * lb (latency bucket, flowgate_latency_bucket) and n (requests of that row); `prefix` may put
 * WITH queries before the INSERT. Cells are written in key order, so writers lock rows in one order.
 */
function rollupCellsSql(source: string, shard: number, prefix = ''): string {
  return `${prefix}
INSERT INTO request_log_rollups AS r (project_id, span_s, environment, bucket, method, status, shard, count, errors, latency_histogram)
SELECT project_id, span_s, environment, bucket, method, status, ${Number(shard)}, sum(n)::int, sum(e)::int, jsonb_object_agg(lb, n)
  FROM (SELECT project_id, span_s, environment, bucket, coalesce(method, '') AS method, coalesce(status, 0) AS status,
               lb, sum(n) AS n, coalesce(sum(n) FILTER (WHERE code >= 400), 0) AS e
          FROM (SELECT s.project_id, g.span_s, s.environment, date_bin(make_interval(secs => g.span_s), s.time, timestamptz '1970-01-01Z') AS bucket,
                       s.method, s.status, s.status AS code, s.lb, s.n
                  FROM ${source} AS s CROSS JOIN (VALUES (${ROLLUP_MINUTE}), (${ROLLUP_HOUR})) AS g(span_s)) AS rows
         GROUP BY GROUPING SETS ((project_id, span_s, environment, bucket, lb), (project_id, span_s, environment, bucket, method, status, lb))) AS cells
 GROUP BY project_id, span_s, environment, method, status, bucket
 ORDER BY project_id, span_s, environment, method, status, bucket
ON CONFLICT (project_id, span_s, environment, method, status, bucket, shard) DO UPDATE
   SET count = r.count + EXCLUDED.count,
       errors = r.errors + EXCLUDED.errors,
       latency_histogram = flowgate_merge_latency_histograms(r.latency_histogram, EXCLUDED.latency_histogram)`;
}

/**
 * INSERT … SELECT that adds the rows of `source` (a relation or subquery with the columns
 * project_id, environment, time, method, status, duration_ms) to request_log_rollups as shard
 * `shard`: the cells log-ingest's deltas become once folded (a test compares the two). This is
 * the rebuild from stored rows (seeding, backfills).
 */
export function rollupInsertSql(source: string, shard = 0): string {
  return rollupCellsSql(
    `(SELECT project_id, environment, time, method, status, flowgate_latency_bucket(duration_ms::real) AS lb, 1 AS n FROM ${source} AS rows)`,
    shard,
  );
}

/**
 * The fold: moves every row of request_log_rollup_deltas visible to the statement into
 * request_log_rollups (minute and hour cells, as shard 0) and deletes it, in one statement. A
 * delta written meanwhile by a transaction that commits later is left for the next fold, and a
 * reader's statement sees each delta either as a delta or inside the rollups, never both.
 */
const FOLD_DELTAS = rollupCellsSql(
  // Summed per minute cell and latency bucket first: the minute and hour cells of the project
  // and of each method and status are then made from those few rows (measured: 13 µs of
  // PostgreSQL CPU per delta when every delta went through the GROUPING SETS, 500 projects).
  `(SELECT d.project_id, d.environment, d.bucket AS time, d.method, d.status, h.lb, sum(h.n) AS n
      FROM folded AS d CROSS JOIN LATERAL unnest(d.latency_buckets, d.latency_counts) AS h(lb, n)
     GROUP BY 1, 2, 3, 4, 5, 6)`,
  0,
  `WITH folded AS (DELETE FROM request_log_rollup_deltas
                   RETURNING project_id, environment, bucket, method, status, latency_buckets, latency_counts)`,
);

/** Folds run one at a time (replicas of log-ingest each run one): this advisory lock is theirs. */
const FOLD_LOCK = 'flowgate-request-log-rollup-fold';

/**
 * Folds the deltas into the rollups (see FOLD_DELTAS). Returns the rollup cells written, or null
 * when another fold was running (it takes what is there; nothing is left behind for long).
 */
export async function foldRequestLogRollupDeltas(pool: Pick<Pool, 'connect'>): Promise<number | null> {
  const client: PoolClient = await pool.connect();
  // A server that goes away mid-fold makes the client emit 'error' (fatal without a listener);
  // the pending query fails instead and the fold is retried by the next one.
  const onLost = () => undefined;
  client.on('error', onLost);
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [FOLD_LOCK]);
    if (rows[0]?.locked !== true) {
      await client.query('ROLLBACK');
      client.off('error', onLost);
      client.release();
      return null;
    }
    // The planner's estimate of a large fold turns JIT compilation on, which costs more than it
    // saves on a statement run once (measured: 36 of 300 ms on 75,000 deltas).
    await client.query('SET LOCAL jit = off');
    const { rowCount } = await client.query({ name: 'flowgate-fold-rollup-deltas', text: FOLD_DELTAS });
    await client.query('COMMIT');
    client.off('error', onLost);
    client.release();
    return rowCount ?? 0;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.off('error', onLost);
    client.release(error as Error);
    throw error;
  }
}

/**
 * Retention of the rollups, with the cutoff of the rows: deletes those of days before
 * `cutoffDay` (UTC, `YYYY-MM-DD`), folded or not. Called by maintainRequestLogPartitions.
 */
export async function dropRequestLogRollupsOlderThan(db: PartitionDb, cutoffDay: string): Promise<number> {
  const sql = `WITH gone AS (DELETE FROM request_log_rollups WHERE bucket < $1::date::timestamp AT TIME ZONE 'UTC' RETURNING 1),
                    unfolded AS (DELETE FROM request_log_rollup_deltas WHERE bucket < $1::date::timestamp AT TIME ZONE 'UTC' RETURNING 1)
               SELECT (SELECT count(*) FROM gone)::int + (SELECT count(*) FROM unfolded)::int AS deleted`;
  const params = [cutoffDay];
  const rows: Array<{ deleted: number }> =
    '$queryRawUnsafe' in db ? await db.$queryRawUnsafe<Array<{ deleted: number }>>(sql, ...params) : (await db.query<{ deleted: number }>(sql, params)).rows;
  return rows[0]?.deleted ?? 0;
}
