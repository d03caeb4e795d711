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
