import type { Pool, PoolClient } from 'pg';
import type { PartitionDb } from './request-log-partitions';

/** Spans of request_log_rollups rows, in seconds. */
export const ROLLUP_MINUTE = 60;
export const ROLLUP_HOUR = 3600;

/**
 * INSERT … SELECT that adds weighted request rows to request_log_rollups as shard `shard`: per
 * minute and per hour, per environment, for the project and per method and status. `source` is a
 * relation or subquery with the columns project_id, environment, time, method, status,
 * lb (latency bucket, flowgate_latency_bucket) and n (requests of that row). Cells are written in
 * key order, so writers lock rows in one order.
 */
function rollupCellsSql(source: string, shard: number): string {
  return `
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
 * The fold: moves the rows of request_log_rollup_deltas visible to its transaction into
 * request_log_rollups (minute and hour cells, as shard 0) and deletes them, in one transaction:
 * a delta written meanwhile by a transaction that commits later is left for the next fold, and
 * a reader's statement sees each delta either as a delta or inside the rollups, never both.
 *
 * The deltas are taken grouped by minute, method and status with their histograms joined
 * (`TAKE_DELTAS`) and summed here into the cells of the project and of each method and status,
 * per minute and per hour (`foldCells`), which go back in one upsert of a few thousand rows.
 * Summed by PostgreSQL instead (unnest, GROUPING SETS, jsonb_object_agg, as `rollupCellsSql`
 * does for the rebuild from rows), a fold of 40,000 deltas of 500 projects took 875 ms of its
 * CPU, 22 µs a delta.
 */
const TAKE_DELTAS = `WITH taken AS (
  DELETE FROM request_log_rollup_deltas
   WHERE ctid = ANY (ARRAY(SELECT ctid FROM request_log_rollup_deltas LIMIT $1))
  RETURNING project_id, environment, bucket, method, status, latency_buckets, latency_counts)
SELECT project_id, environment, (extract(epoch FROM bucket) * 1000)::float8 AS bucket_ms, method, status, count(*)::int AS deltas,
       string_agg(array_to_string(latency_buckets, ','), ',') AS buckets, string_agg(array_to_string(latency_counts, ','), ',') AS counts
  FROM taken GROUP BY project_id, environment, bucket, method, status`;

/** Deltas one fold transaction takes at most: a backlog is folded in several, each whole. */
export const FOLD_BATCH_DELTAS = 50_000;

const UPSERT_CELLS = `
INSERT INTO request_log_rollups AS r (project_id, span_s, environment, bucket, method, status, shard, count, errors, latency_histogram)
SELECT c.project_id, c.span_s, c.environment, to_timestamp(c.bucket_ms / 1000), c.method, c.status, 0, c.count, c.errors, c.histogram
  FROM unnest($1::uuid[], $2::int[], $3::text[], $4::float8[], $5::text[], $6::int[], $7::int[], $8::int[], $9::jsonb[])
       AS c(project_id, span_s, environment, bucket_ms, method, status, count, errors, histogram)
 ORDER BY c.project_id, c.span_s, c.environment, c.method, c.status, c.bucket_ms
ON CONFLICT (project_id, span_s, environment, method, status, bucket, shard) DO UPDATE
   SET count = r.count + EXCLUDED.count,
       errors = r.errors + EXCLUDED.errors,
       latency_histogram = flowgate_merge_latency_histograms(r.latency_histogram, EXCLUDED.latency_histogram)`;

/**
 * The deltas of one minute, method and status of a project as the fold takes them: their
 * histograms' buckets and counts joined as two comma-separated lists of equal length.
 * PostgreSQL groups the rows and this side sums the histograms; taken one row a delta, the
 * parsing of 40,000 rows of two arrays each by node-postgres cost more than the fold saved.
 */
interface RollupDeltas {
  project_id: string;
  environment: string;
  /** The UTC minute, ms since the epoch. */
  bucket_ms: number;
  method: string;
  status: number;
  /** How many delta rows these are. */
  deltas: number;
  buckets: string | null;
  counts: string | null;
}

/** A cell of request_log_rollups and what a fold adds to it. */
interface RollupCell {
  projectId: string;
  spanS: number;
  environment: string;
  bucketMs: number;
  method: string;
  status: number;
  count: number;
  errors: number;
  histogram: Map<number, number>;
}

const SPANS = [ROLLUP_MINUTE, ROLLUP_HOUR] as const;

/**
 * The cells `groups` add to: per span (minute, hour), the project's (method '', status 0) and
 * its method and status's; `count` and `errors` (status ≥ 400) are sums of the histograms, as
 * the rebuild from rows counts them (`rollupInsertSql`; a test compares the two).
 */
function foldCells(groups: readonly RollupDeltas[]): RollupCell[] {
  const cells = new Map<string, RollupCell>();
  for (const group of groups) {
    const histogram = new Map<number, number>();
    let count = 0;
    if (group.buckets !== null && group.counts !== null && group.buckets !== '') {
      const buckets = group.buckets.split(',');
      const counts = group.counts.split(',');
      for (let i = 0; i < buckets.length && i < counts.length; i++) {
        const [bucket, n] = [Number(buckets[i]), Number(counts[i])];
        count += n;
        histogram.set(bucket, (histogram.get(bucket) ?? 0) + n);
      }
    }
    const errors = group.status >= 400 ? count : 0;
    for (const spanS of SPANS) {
      const spanMs = spanS * 1000;
      const bucketMs = Math.floor(group.bucket_ms / spanMs) * spanMs;
      for (const [method, status] of [['', 0], [group.method, group.status]] as const) {
        const key = `${group.project_id}|${group.environment}|${spanS}|${bucketMs}|${method}|${status}`;
        let cell = cells.get(key);
        if (cell === undefined) {
          cell = { projectId: group.project_id, spanS, environment: group.environment, bucketMs, method, status, count: 0, errors: 0, histogram: new Map() };
          cells.set(key, cell);
        }
        cell.count += count;
        cell.errors += errors;
        for (const [bucket, n] of histogram) cell.histogram.set(bucket, (cell.histogram.get(bucket) ?? 0) + n);
      }
    }
  }
  return [...cells.values()];
}

/** Folds run one at a time (replicas of log-ingest each run one): this advisory lock is theirs. */
const FOLD_LOCK = 'flowgate-request-log-rollup-fold';

/** One fold transaction: at most `FOLD_BATCH_DELTAS` deltas; null when another fold holds the lock. */
async function foldBatch(client: PoolClient): Promise<{ deltas: number; cells: number } | null> {
  await client.query('BEGIN');
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [FOLD_LOCK]);
  if (rows[0]?.locked !== true) {
    await client.query('ROLLBACK');
    return null;
  }
  // The planner's estimate of a large fold can turn JIT compilation on, which costs more than it
  // saves on statements run once a fold (measured: 36 of 300 ms on 75,000 deltas).
  await client.query('SET LOCAL jit = off');
  const taken = await client.query<RollupDeltas>({ name: 'flowgate-take-rollup-deltas', text: TAKE_DELTAS, values: [FOLD_BATCH_DELTAS] });
  const cells = foldCells(taken.rows);
  let deltas = 0;
  for (const group of taken.rows) deltas += group.deltas;
  if (cells.length > 0) {
    const column = <T>(of: (cell: RollupCell) => T): T[] => cells.map(of);
    await client.query({
      name: 'flowgate-upsert-rollup-cells',
      text: UPSERT_CELLS,
      values: [
        column((c) => c.projectId),
        column((c) => c.spanS),
        column((c) => c.environment),
        column((c) => c.bucketMs),
        column((c) => c.method),
        column((c) => c.status),
        column((c) => c.count),
        column((c) => c.errors),
        column((c) => JSON.stringify(Object.fromEntries(c.histogram))),
      ],
    });
  }
  await client.query('COMMIT');
  return { deltas, cells: cells.length };
}

/**
 * Folds the deltas into the rollups (see `TAKE_DELTAS`), a backlog in transactions of
 * `FOLD_BATCH_DELTAS`. Returns the rollup cells written, or null when another fold was running
 * (it takes what is there; nothing is left behind for long).
 */
export async function foldRequestLogRollupDeltas(pool: Pick<Pool, 'connect'>): Promise<number | null> {
  const client: PoolClient = await pool.connect();
  // A server that goes away mid-fold makes the client emit 'error' (fatal without a listener);
  // the pending query fails instead and the fold is retried by the next one.
  const onLost = () => undefined;
  client.on('error', onLost);
  try {
    let written: number | null = null;
    for (;;) {
      const batch = await foldBatch(client);
      if (batch === null) break;
      written = (written ?? 0) + batch.cells;
      if (batch.deltas < FOLD_BATCH_DELTAS) break;
    }
    client.off('error', onLost);
    client.release();
    return written;
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
