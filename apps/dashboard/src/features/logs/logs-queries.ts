import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQuery, type LogFilters } from './log-filters';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import type { LogEntry } from '../../api/types';

export const LOG_PAGE_SIZE = 50;

/** How often an empty first page asks again: requests reach the logs seconds after they are answered. */
export const EMPTY_POLL_MS = 3000;

/**
 * One page of the project's logs (newest first); `cursor` from a previous page's next/prev_cursor.
 * An empty first page is asked for again every EMPTY_POLL_MS until rows arrive, so a page
 * opened right after traffic fills in by itself.
 */
export function useLogPage(projectId: string, filters: LogFilters, cursor: string | null) {
  return useQuery({
    queryKey: [...queryKeys.logs(projectId), 'page', filters, cursor],
    queryFn: ({ signal }) =>
      api('GET /v1/projects/{projectId}/logs', {
        params: { projectId },
        query: { ...apiQuery(filters), limit: LOG_PAGE_SIZE, cursor: cursor ?? undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (cursor === null && query.state.data?.items.length === 0 ? EMPTY_POLL_MS : false),
  });
}

/** Entries newer than `since` (Live), up to a page. */
export function fetchNewerLogs(projectId: string, filters: LogFilters, since: string) {
  return api('GET /v1/projects/{projectId}/logs', { params: { projectId }, query: { ...apiQuery(filters), from: since, limit: 200 } });
}

/** Totals and buckets for the charts; refreshed every `refreshMs` while Live is on. */
export function useLogStats(projectId: string, filters: LogFilters, refreshMs: number | false) {
  return useQuery({
    queryKey: [...queryKeys.logs(projectId), 'stats', filters],
    queryFn: ({ signal }) => {
      const { from, endpoint, status, method, environment } = apiQuery(filters);
      return api('GET /v1/projects/{projectId}/logs/stats', { params: { projectId }, query: { from, endpoint, status, method, environment }, signal });
    },
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
}

/** One entry's details (its time makes the lookup direct). */
export function useLogDetail(projectId: string, entry: LogEntry) {
  return useQuery({
    queryKey: [...queryKeys.logs(projectId), 'entry', entry.id],
    queryFn: ({ signal }) => api('GET /v1/projects/{projectId}/logs/{logId}', { params: { projectId, logId: entry.id }, query: { time: entry.time }, signal }),
  });
}
