import type { Pool } from 'pg';

export interface DrillCounts {
  drill: string;
  attempted: number;
  acknowledged: number;
  stored: number;
  stored_distinct: number;
  acknowledged_missing: number;
  stored_never_sent: number;
  /** Sends the producer gave up on (not acknowledged: a gateway would not count them as logged). */
  failed_sends?: number;
}

/** Compares what the producer saw acknowledged with what request_logs holds for the drill's projects. */
export async function countDrill(drill: string, pool: Pool, projectIds: string[], attempted: Set<string>, acknowledged: Set<string>): Promise<DrillCounts> {
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM request_logs WHERE project_id = ANY($1::uuid[])', [projectIds]);
  const stored = rows.map((row) => row.id);
  const storedSet = new Set(stored);
  return {
    drill,
    attempted: attempted.size,
    acknowledged: acknowledged.size,
    stored: stored.length,
    stored_distinct: storedSet.size,
    acknowledged_missing: [...acknowledged].filter((id) => !storedSet.has(id)).length,
    stored_never_sent: stored.filter((id) => !attempted.has(id)).length,
  };
}

/**
 * Cells where the stats disagree with the rows: per project, UTC minute and hour, the count of
 * request_logs against the rollups' project totals plus the deltas not folded yet (what the stats
 * API reads), in one statement (one snapshot, whoever folds meanwhile). Empty when they agree.
 */
export async function rollupMismatches(pool: Pool, projectIds: string[]): Promise<Array<{ project_id: string; span_s: number; bucket: Date; rows: number; rollups: number }>> {
  const { rows } = await pool.query(
    `WITH spans(span_s) AS (VALUES (60), (3600)),
     stored AS (SELECT project_id, span_s, date_bin(make_interval(secs => span_s), time, timestamptz '1970-01-01Z') AS bucket, count(*)::int AS n
                  FROM request_logs CROSS JOIN spans WHERE project_id = ANY($1::uuid[]) GROUP BY 1, 2, 3),
     counted AS (SELECT project_id, span_s, bucket, sum(n)::int AS n FROM (
                   SELECT project_id, span_s, bucket, count AS n FROM request_log_rollups WHERE project_id = ANY($1::uuid[]) AND method = '' AND status = 0
                   UNION ALL
                   SELECT project_id, span_s, date_bin(make_interval(secs => span_s), bucket, timestamptz '1970-01-01Z'), count
                     FROM request_log_rollup_deltas CROSS JOIN spans WHERE project_id = ANY($1::uuid[])) AS cells
                  GROUP BY 1, 2, 3)
     SELECT project_id, span_s, bucket, coalesce(s.n, 0) AS rows, coalesce(c.n, 0) AS rollups
       FROM stored AS s FULL JOIN counted AS c USING (project_id, span_s, bucket)
      WHERE s.n IS DISTINCT FROM c.n`,
    [projectIds],
  );
  return rows;
}

export async function storedCount(pool: Pool, projectIds: string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM request_logs WHERE project_id = ANY($1::uuid[])', [projectIds]);
  return rows[0].n;
}

export function report(counts: DrillCounts): void {
  process.stdout.write(
    `[fault drill ${counts.drill}] sent ${counts.attempted}, acknowledged ${counts.acknowledged}, stored ${counts.stored} ` +
      `(distinct ${counts.stored_distinct}), acknowledged but missing ${counts.acknowledged_missing}, failed sends ${counts.failed_sends ?? 0}\n` +
      `${JSON.stringify({ fault_drill: counts.drill, ...counts })}\n`,
  );
}

/**
 * Sum over partitions of the group's committed offsets — or, with `groupId` null, of the
 * topic's end offsets (what "everything committed" must equal).
 */
export async function committedTotalOf(kafka: import('kafkajs').Kafka, topic: string, groupId: string | null): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (groupId === null) return (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0);
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return (entry?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}
