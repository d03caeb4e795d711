import { Inject, Injectable } from '@nestjs/common';
import { Prisma, PrismaClient } from '@flowgate/db';
import type { StatusRange } from './dto/logs.dto';

export interface LogFilter {
  projectId: string;
  /** Default `live`. */
  environment?: 'live' | 'preview';
  /** Any when absent. */
  trigger?: 'http' | 'schedule' | 'mcp';
  /** Any when absent. */
  cache?: 'hit' | 'miss';
  /** Any of these paths (an endpoint is reachable as /x and /api/x). */
  paths?: string[];
  status?: StatusRange;
  method?: string;
  from?: Date;
  to?: Date;
}

export interface LogRow {
  id: string;
  time: Date;
  path: string;
  method: string;
  status: number;
  code: string | null;
  duration_ms: number;
  key_id: string | null;
  environment: 'live' | 'preview';
  trigger: 'http' | 'schedule' | 'mcp';
  streamed: boolean;
  cache: 'hit' | 'miss' | null;
}

export interface LogDetailRow extends LogRow {
  /** `RequestLogDetails` as stored (json, parsed by the driver; its shape is checked by the service); null for rows without them (schedules, older gateways). */
  details: unknown;
  endpoint_id: string | null;
  query: string;
  message: string | null;
  error_node_id: string | null;
  key_name: string | null;
}

export interface LogPosition {
  time: Date;
  id: string;
}

const HOUR = 3_600_000;
/** Distances from the anchor at which successive windows end: 1 h, 1 day, 1 week, 31 days, then everything. */
const WINDOW_EDGES = [HOUR, 24 * HOUR, 7 * 24 * HOUR, 31 * 24 * HOUR, Number.POSITIVE_INFINITY];

interface Window {
  lower?: Date;
  upper?: Date;
}

/**
 * request_logs reads, newest first (or oldest first for Back), by keyset on (time, id).
 *
 * The table is partitioned by day. One query over the whole table makes PostgreSQL plan every
 * partition and start a scan in each (a Merge Append), and with rare filter combinations it
 * prefers to collect and sort every match. So a page is read in growing time windows from the
 * anchor (the cursor, `to`, or now): 1 h, 1 day, 1 week, 31 days, the rest, stopping as soon
 * as the page is full. Each window prunes to its few partitions and is served by the
 * primary key (project_id, time, id) read backwards (a method filter along it), or the
 * (project_id, path|status, time, id) indexes, likewise read backwards for newest first;
 * windows are disjoint and visited in order, so the concatenation is in order. The status
 * index holds only the rows that are not a plain 200 (docs/database.md): a 200 or 2xx filter
 * is read along the primary key, every other status through that index.
 */
@Injectable()
export class LogsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async page(filter: LogFilter, order: 'older' | 'newer', limit: number, after?: LogPosition, now = new Date()): Promise<LogRow[]> {
    const rows: LogRow[] = [];
    for (const window of this.windows(filter, order, after, now)) {
      rows.push(...(await this.query(filter, order, limit - rows.length, after, window)));
      if (rows.length >= limit) break;
    }
    return rows;
  }

  /**
   * One entry with its details. With its time known it is one primary-key lookup; without,
   * the same growing windows as a page (recent entries are found in the first).
   */
  async findOne(projectId: string, id: string, time?: Date, now = new Date()): Promise<LogDetailRow | null> {
    const select = (window: Prisma.Sql) => this.prisma.$queryRaw<LogDetailRow[]>(Prisma.sql`
      SELECT r.id, r.time, r.path, r.method, r.status, r.code, r.duration_ms, r.key_id, r.environment, r.trigger, r.streamed, r.cache,
             r.endpoint_id, r.query, r.message, r.error_node_id, r.details, k.name AS key_name
        FROM request_logs r LEFT JOIN api_keys k ON k.id = r.key_id AND k.project_id = r.project_id
       WHERE r.project_id = ${projectId}::uuid AND r.id = ${id}::uuid AND ${window}
       LIMIT 1`);
    if (time) return (await select(Prisma.sql`r.time = ${time}`))[0] ?? null;
    for (const window of this.windows({ projectId }, 'older', undefined, now)) {
      const bounds = [Prisma.sql`TRUE`];
      if (window.lower) bounds.push(Prisma.sql`r.time >= ${window.lower}`);
      if (window.upper) bounds.push(Prisma.sql`r.time < ${window.upper}`);
      const [row] = await select(Prisma.join(bounds, ' AND '));
      if (row) return row;
    }
    return null;
  }

  private *windows(filter: LogFilter, order: 'older' | 'newer', after: LogPosition | undefined, now: Date): Generator<Window> {
    const lowest = filter.from?.getTime() ?? Number.NEGATIVE_INFINITY;
    const highest = filter.to?.getTime() ?? Number.POSITIVE_INFINITY;
    if (order === 'older') {
      const anchor = Math.min(after?.time.getTime() ?? now.getTime(), highest);
      let upper: number | undefined;
      for (const edge of WINDOW_EDGES) {
        const lower = Math.max(anchor - edge, lowest);
        yield { lower: Number.isFinite(lower) ? new Date(lower) : undefined, upper: upper === undefined ? undefined : new Date(upper) };
        if (lower <= lowest) return;
        upper = lower;
      }
    } else {
      const anchor = Math.max(after?.time.getTime() ?? lowest, lowest);
      if (!Number.isFinite(anchor)) {
        yield { upper: filter.to };
        return;
      }
      let lower: number | undefined;
      for (const edge of WINDOW_EDGES) {
        const upper = Math.min(anchor + edge, highest);
        yield { lower: lower === undefined ? undefined : new Date(lower), upper: Number.isFinite(upper) ? new Date(upper) : undefined };
        if (upper >= highest) return;
        lower = upper;
      }
    }
  }

  private query(filter: LogFilter, order: 'older' | 'newer', limit: number, after: LogPosition | undefined, window: Window): Promise<LogRow[]> {
    const conditions = [Prisma.sql`project_id = ${filter.projectId}::uuid`, Prisma.sql`environment = ${filter.environment ?? 'live'}`];
    const { status } = filter;
    // One code keeps the (project_id, status, time) index's order; a class is a range of codes.
    // The values reach PostgreSQL as parameters of an unnamed statement, planned with them: it
    // sees that 404 or 400–499 lies within the partial status index (status <> 200).
    if (status !== undefined)
      conditions.push(status.min === status.max ? Prisma.sql`status = ${status.min}` : Prisma.sql`status BETWEEN ${status.min} AND ${status.max}`);
    if (filter.method !== undefined) conditions.push(Prisma.sql`method = ${filter.method}`);
    if (filter.trigger !== undefined) conditions.push(Prisma.sql`trigger = ${filter.trigger}`);
    if (filter.cache !== undefined) conditions.push(Prisma.sql`cache = ${filter.cache}`);
    if (filter.from) conditions.push(Prisma.sql`time >= ${filter.from}`);
    if (filter.to) conditions.push(Prisma.sql`time < ${filter.to}`);
    if (window.lower) conditions.push(Prisma.sql`time >= ${window.lower}`);
    if (window.upper) conditions.push(Prisma.sql`time < ${window.upper}`);
    if (after)
      conditions.push(
        order === 'older'
          ? Prisma.sql`(time, id) < (${after.time}, ${after.id}::uuid)`
          : Prisma.sql`(time, id) > (${after.time}, ${after.id}::uuid)`,
      );
    const direction = order === 'older' ? Prisma.sql`DESC` : Prisma.sql`ASC`;
    const select = (extra: Prisma.Sql) => Prisma.sql`
      SELECT id, time, path, method, status, code, duration_ms, key_id, environment, trigger, streamed, cache FROM request_logs
      WHERE ${Prisma.join([...conditions, extra], ' AND ')}
      ORDER BY time ${direction}, id ${direction} LIMIT ${limit}`;

    const paths = filter.paths ?? [];
    if (paths.length === 0) return this.prisma.$queryRaw<LogRow[]>(select(Prisma.sql`TRUE`));
    if (paths.length === 1) return this.prisma.$queryRaw<LogRow[]>(select(Prisma.sql`path = ${paths[0]}`));
    // One index scan per path, each already limited, merged.
    const branches = paths.map((path) => Prisma.sql`(${select(Prisma.sql`path = ${path}`)})`);
    return this.prisma.$queryRaw<LogRow[]>(Prisma.sql`
      SELECT * FROM (${Prisma.join(branches, ' UNION ALL ')}) AS page
      ORDER BY time ${direction}, id ${direction} LIMIT ${limit}`);
  }
}
