import { Inject, Injectable } from '@nestjs/common';
import { Prisma, PrismaClient } from '@flowgate/db';

export interface LogFilter {
  projectId: string;
  /** Any of these paths (an endpoint is reachable as /x and /api/x). */
  paths?: string[];
  status?: number;
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
}

/**
 * request_logs reads. One keyset query per page, served by the (project_id[, path|status|method],
 * time DESC, id DESC) indexes of every daily partition; several paths become a UNION ALL of
 * per-path index scans, each already limited, so no branch reads more than one page.
 */
@Injectable()
export class LogsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** `limit` rows after `after` in the given order ('older' = time DESC, id DESC). */
  page(filter: LogFilter, order: 'older' | 'newer', limit: number, after?: { time: Date; id: string }): Promise<LogRow[]> {
    const conditions = [Prisma.sql`project_id = ${filter.projectId}::uuid`];
    if (filter.status !== undefined) conditions.push(Prisma.sql`status = ${filter.status}`);
    if (filter.method !== undefined) conditions.push(Prisma.sql`method = ${filter.method}`);
    if (filter.from) conditions.push(Prisma.sql`time >= ${filter.from}`);
    if (filter.to) conditions.push(Prisma.sql`time < ${filter.to}`);
    if (after)
      conditions.push(
        order === 'older'
          ? Prisma.sql`(time, id) < (${after.time}, ${after.id}::uuid)`
          : Prisma.sql`(time, id) > (${after.time}, ${after.id}::uuid)`,
      );
    const direction = order === 'older' ? Prisma.sql`DESC` : Prisma.sql`ASC`;
    const select = (extra: Prisma.Sql) => Prisma.sql`
      SELECT id, time, path, method, status, code, duration_ms, key_id FROM request_logs
      WHERE ${Prisma.join([...conditions, extra], ' AND ')}
      ORDER BY time ${direction}, id ${direction} LIMIT ${limit}`;

    const paths = filter.paths ?? [];
    if (paths.length === 0) return this.prisma.$queryRaw<LogRow[]>(select(Prisma.sql`TRUE`));
    if (paths.length === 1) return this.prisma.$queryRaw<LogRow[]>(select(Prisma.sql`path = ${paths[0]}`));
    const branches = paths.map((path) => Prisma.sql`(${select(Prisma.sql`path = ${path}`)})`);
    return this.prisma.$queryRaw<LogRow[]>(Prisma.sql`
      SELECT * FROM (${Prisma.join(branches, ' UNION ALL ')}) AS page
      ORDER BY time ${direction}, id ${direction} LIMIT ${limit}`);
  }
}
