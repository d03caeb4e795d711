import type { Client, Pool, PoolClient } from 'pg';
import type { PrismaClient } from './generated/client';
import { dropRequestLogRollupsOlderThan } from './request-log-rollups';

/**
 * request_logs is partitioned by UTC day (request_logs_pYYYYMMDD) with a DEFAULT partition
 * that catches rows of days without one. These call the SQL functions of the init migration;
 * the worker's daily retention job uses `maintainRequestLogPartitions`.
 */

/** A node-postgres client or pool, or a Prisma client. */
export type PartitionDb = Pick<PrismaClient, '$queryRawUnsafe'> | Pick<Client | Pool | PoolClient, 'query'>;

/** A UTC day as `YYYY-MM-DD`: a Date is taken at its UTC date, a string must already be one. */
export type Day = Date | string;

export function toUtcDay(day: Day): string {
  if (typeof day === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
    return day;
  }
  if (Number.isNaN(day.getTime())) throw new RangeError('invalid Date');
  return day.toISOString().slice(0, 10);
}

export function addDays(day: Day, days: number): string {
  const date = new Date(`${toUtcDay(day)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return toUtcDay(date);
}

/** The partition that holds the rows of `day` (UTC). */
export function requestLogPartitionName(day: Day): string {
  return `request_logs_p${toUtcDay(day).replaceAll('-', '')}`;
}

async function names(db: PartitionDb, sql: string, params: unknown[]): Promise<string[]> {
  const rows: { name: string }[] =
    '$queryRawUnsafe' in db ? await db.$queryRawUnsafe<{ name: string }[]>(sql, ...params) : (await db.query<{ name: string }>(sql, params)).rows;
  return rows.map((row) => row.name);
}

/**
 * Makes sure the daily partitions of `days` days from `fromDay` exist, moving rows that had
 * landed in the default partition for those days. Returns the partitions it created.
 */
export function ensureRequestLogPartitions(db: PartitionDb, fromDay: Day, days: number): Promise<string[]> {
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`days must be a whole number >= 0, got ${days}`);
  return names(db, 'SELECT name FROM flowgate_ensure_request_log_partitions($1::date, $2::int) AS name', [toUtcDay(fromDay), days]);
}

/**
 * Drops the daily partitions of days before `cutoffDay` and deletes older rows from the
 * default partition (which is never dropped). Returns the dropped partitions' names.
 */
export function dropRequestLogPartitionsOlderThan(db: PartitionDb, cutoffDay: Day): Promise<string[]> {
  return names(db, 'SELECT name FROM flowgate_drop_request_log_partitions($1::date) AS name', [toUtcDay(cutoffDay)]);
}

export interface PartitionMaintenance {
  /** Today, UTC (pass the clock's now). */
  today: Day;
  /** Days to keep, today included: rows of days before `today - retentionDays + 1` go. */
  retentionDays: number;
  /** Partitions to create ahead of today. */
  daysAhead: number;
}

/** The daily job: partitions from yesterday to `daysAhead` days ahead, retention applied to the rows and their rollups. */
export async function maintainRequestLogPartitions(
  db: PartitionDb,
  { today, retentionDays, daysAhead }: PartitionMaintenance,
): Promise<{ created: string[]; dropped: string[]; rollupsDeleted: number }> {
  if (!Number.isInteger(retentionDays) || retentionDays < 1) throw new RangeError(`retentionDays must be >= 1, got ${retentionDays}`);
  const created = await ensureRequestLogPartitions(db, addDays(today, -1), daysAhead + 2);
  const cutoff = addDays(today, 1 - retentionDays);
  const dropped = await dropRequestLogPartitionsOlderThan(db, cutoff);
  // The statistics of a day go with its rows (GET …/logs/stats never outlives the logs).
  const rollupsDeleted = await dropRequestLogRollupsOlderThan(db, cutoff);
  return { created, dropped, rollupsDeleted };
}
