import { Inject, Injectable } from '@nestjs/common';
import { type LatencyHistogram, Prisma, PrismaClient } from '@flowgate/db';
import type { StatusRange } from './dto/logs.dto';
import { rollupSlices, type StatsRange } from './log-stats-range';

export interface StatsFilter {
  projectId: string;
  /** Default `live`. */
  environment?: 'live' | 'preview';
  /** Any of these paths (an endpoint is reachable as /x and /api/x). */
  paths?: string[];
  status?: StatusRange;
  method?: string;
}

/** One rollup row, placed in its bucket (`slot` = bucket start / interval). */
export interface RollupSlotRow {
  slot: number;
  count: number;
  errors: number;
  latency_histogram: LatencyHistogram;
}

/** Exact figures of one bucket (`slot`), or of the whole range (`slot` null), from the rows. */
export interface ExactSlotRow {
  slot: number | null;
  count: number;
  errors: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

@Injectable()
export class LogStatsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /**
   * The rollup rows of the range: the project's own rows without a status or method filter,
   * else the per method and status rows that match. Hourly rows where they fit (rollupSlices).
   * Plus the deltas log-ingest has not folded into them yet (per minute, method and status), in
   * the same statement: a fold moves deltas into the rollups atomically, so each request is
   * counted once whenever the fold runs.
   */
  fromRollups(filter: StatsFilter, range: StatsRange): Promise<RollupSlotRow[]> {
    const grouping: Prisma.Sql[] = [];
    const matching: Prisma.Sql[] = [];
    if (filter.method !== undefined) matching.push(Prisma.sql`method = ${filter.method}`);
    if (filter.status !== undefined) matching.push(Prisma.sql`status BETWEEN ${filter.status.min} AND ${filter.status.max}`);
    // The project's cells by the primary key; filtered cells by time ((project_id, span_s, bucket) index).
    if (matching.length === 0) grouping.push(Prisma.sql`method = '' AND status = 0`);
    else grouping.push(Prisma.sql`method <> ''`, ...matching);
    const slices = rollupSlices(range).map(
      (slice) => Prisma.sql`
        SELECT floor(extract(epoch FROM bucket) / ${range.intervalS})::int AS slot, count, errors, latency_histogram
          FROM request_log_rollups
         WHERE project_id = ${filter.projectId}::uuid AND span_s = ${slice.spanS} AND environment = ${filter.environment ?? 'live'}
           AND ${Prisma.join(grouping, ' AND ')}
           AND bucket >= ${new Date(slice.fromMs)} AND bucket < ${new Date(slice.toMs)}`,
    );
    const deltas = Prisma.sql`
      SELECT floor(extract(epoch FROM bucket) / ${range.intervalS})::int AS slot, count, CASE WHEN status >= 400 THEN count ELSE 0 END AS errors,
             (SELECT jsonb_object_agg(b, n) FROM unnest(latency_buckets, latency_counts) AS h(b, n)) AS latency_histogram
        FROM request_log_rollup_deltas
       WHERE project_id = ${filter.projectId}::uuid AND environment = ${filter.environment ?? 'live'}
         AND bucket >= ${new Date(range.fromMs)} AND bucket < ${new Date(range.toMs)}${matching.length > 0 ? Prisma.sql` AND ${Prisma.join(matching, ' AND ')}` : Prisma.empty}`;
    return this.prisma.$queryRaw<RollupSlotRow[]>(Prisma.join([...slices, deltas], ' UNION ALL '));
  }

  /**
   * Exact figures from request_logs itself, for an endpoint filter (the rollups have no
   * per-endpoint grouping: docs/log-pipeline.md). Reads the endpoint's rows of the range
   * through the (project_id, path, time) index.
   */
  fromRows(filter: StatsFilter, range: StatsRange): Promise<ExactSlotRow[]> {
    const conditions = [
      Prisma.sql`project_id = ${filter.projectId}::uuid`,
      Prisma.sql`environment = ${filter.environment ?? 'live'}`,
      Prisma.sql`path = ANY(${filter.paths ?? []}::text[])`,
      Prisma.sql`time >= ${new Date(range.fromMs)}`,
      Prisma.sql`time < ${new Date(range.toMs)}`,
    ];
    if (filter.method !== undefined) conditions.push(Prisma.sql`method = ${filter.method}`);
    if (filter.status !== undefined) conditions.push(Prisma.sql`status BETWEEN ${filter.status.min} AND ${filter.status.max}`);
    return this.prisma.$queryRaw<ExactSlotRow[]>(Prisma.sql`
      SELECT slot, count(*)::int AS count, (count(*) FILTER (WHERE status >= 400))::int AS errors,
             (percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms))::float8 AS p50_ms,
             (percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms))::float8 AS p95_ms,
             (percentile_disc(0.99) WITHIN GROUP (ORDER BY duration_ms))::float8 AS p99_ms
        FROM (SELECT floor(extract(epoch FROM time) / ${range.intervalS})::int AS slot, status, duration_ms
                FROM request_logs WHERE ${Prisma.join(conditions, ' AND ')}) AS rows
       GROUP BY GROUPING SETS ((slot), ())`);
  }
}
