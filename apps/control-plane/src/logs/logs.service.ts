import { requestLogDetailsSchema } from '@flowgate/contracts';
import { Injectable } from '@nestjs/common';
import { AppError, invalidRequest } from '../common/app-error';
import { ProjectsService } from '../projects/projects.service';
import type { LogDetail, LogEntry, LogPage, LogRequestDetails, LogsQuery } from './dto/logs.dto';
import { decodeCursor, encodeCursor } from './log-cursor';
import { type LogFilter, type LogRow, LogsRepository } from './logs.repository';

export const DEFAULT_LOG_LIMIT = 50;

/** The stored details when they read as the contract says (anything else, a hand-written row, as none), headers as `{name, value}`. */
function detailsOf(stored: unknown): LogRequestDetails | null {
  const parsed = requestLogDetailsSchema.safeParse(stored);
  if (!parsed.success) return null;
  return { ...parsed.data, headers: parsed.data.headers.map(([name, value]) => ({ name, value })) };
}

/** `/orders` matches requests to /orders and /api/orders (the gateway serves both); `/api/orders` only itself. */
export function pathsFor(endpoint: string): string[] {
  const path = endpoint.startsWith('/') ? endpoint : `/${endpoint}`;
  return path === '/api' || path.startsWith('/api/') ? [path] : [path, `/api${path === '/' ? '' : path}`];
}

const toEntry = (row: LogRow): LogEntry => ({
  id: row.id,
  endpoint: row.path,
  time: row.time.toISOString(),
  method: row.method,
  status: row.status,
  duration_ms: row.duration_ms,
  key_id: row.key_id,
  code: row.code,
  environment: row.environment,
  trigger: row.trigger,
  streamed: row.streamed,
  cache: row.cache,
});

@Injectable()
export class LogsService {
  constructor(
    private readonly logs: LogsRepository,
    private readonly projects: ProjectsService,
  ) {}

  /** A page of the project's request logs, newest first, with cursors for Next (older) and Back (newer). */
  async page(accountId: string, projectId: string, query: LogsQuery): Promise<LogPage> {
    await this.projects.requireOwned(accountId, projectId);
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !cursor) throw invalidRequest('The request is not valid', [{ path: 'cursor', message: 'is not a cursor of this API' }]);
    const limit = query.limit ?? DEFAULT_LOG_LIMIT;
    const filter: LogFilter = {
      projectId,
      environment: query.environment,
      trigger: query.trigger,
      cache: query.cache,
      paths: query.endpoint === undefined ? undefined : pathsFor(query.endpoint),
      status: query.status,
      method: query.method,
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
    };

    // One row more than the page tells whether another page follows in that direction.
    if (cursor?.direction === 'prev') {
      const rows = await this.logs.page(filter, 'newer', limit + 1, cursor);
      const hasNewer = rows.length > limit;
      const items = rows.slice(0, limit).reverse();
      return {
        items: items.map(toEntry),
        prev_cursor: hasNewer && items[0] ? encodeCursor({ direction: 'prev', time: items[0].time, id: items[0].id }) : null,
        next_cursor: this.cursorAfter(items.at(-1) ?? null, cursor),
      };
    }
    const rows = await this.logs.page(filter, 'older', limit + 1, cursor ?? undefined);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return {
      items: items.map(toEntry),
      next_cursor: rows.length > limit && last ? encodeCursor({ direction: 'next', time: last.time, id: last.id }) : null,
      prev_cursor: cursor && items[0] ? encodeCursor({ direction: 'prev', time: items[0].time, id: items[0].id }) : null,
    };
  }

  /** One entry with its details; another project's (or account's) entry is not found. */
  async detail(accountId: string, projectId: string, logId: string, time?: string): Promise<LogDetail> {
    await this.projects.requireOwned(accountId, projectId);
    const row = await this.logs.findOne(projectId, logId, time === undefined ? undefined : new Date(time));
    if (!row) throw new AppError('not_found', 'Log entry not found');
    return {
      ...toEntry(row),
      endpoint_id: row.endpoint_id,
      key_name: row.key_name,
      query: row.query,
      error_node_id: row.error_node_id,
      message: row.message,
      details: detailsOf(row.details),
    };
  }

  /** After a Back page, Next leads past its oldest entry (or past the cursor when the page is empty). */
  private cursorAfter(last: LogRow | null, from: { time: Date; id: string }): string {
    const position = last ?? { time: from.time, id: from.id };
    return encodeCursor({ direction: 'next', time: position.time, id: position.id });
  }
}
