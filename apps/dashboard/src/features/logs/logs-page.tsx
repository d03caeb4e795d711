import { useEffect, useMemo, useRef, useState } from 'react';
import './logs.css';
import { useSearchParams } from 'react-router';
import type { LogEntry } from '../../api/types';
import { useCurrentProject } from '../../ui/use-current-project';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { useDocumentTitle } from '../../ui/use-document-title';
import { filtersFrom, type LogFilters, searchOf } from './log-filters';
import { LogDetailsDialog } from './log-details-dialog';
import { LatencyChart, RequestsChart } from './logs-charts';
import { LogsFiltersForm } from './logs-filters-form';
import { useLogPage, useLogStats } from './logs-queries';
import { LogsTable } from './logs-table';
import { LogsTotals } from './logs-totals';
import { LIVE_POLL_MS, useLiveLogs } from './use-live-logs';

/** `/projects/:id/logs`: filters in the URL, charts and totals, the entries with Back/Next, Live, details. */
export function LogsPage() {
  const project = useCurrentProject();
  useDocumentTitle('Logs', project.name);
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFrom(search), [search]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const [open, setOpen] = useState<LogEntry | null>(null);

  const page = useLogPage(project.id, filters, cursor);
  // While the first page is empty it is asked for again (useLogPage); the charts follow it.
  const waiting = cursor === null && page.data?.items.length === 0;
  const stats = useLogStats(project.id, filters, live || waiting ? LIVE_POLL_MS : false);
  // When the first rows arrive, the charts are read once more: their last poll may predate them.
  const wasWaiting = useRef(false);
  const refetchStats = stats.refetch;
  useEffect(() => {
    if (wasWaiting.current && !waiting) void refetchStats();
    wasWaiting.current = waiting;
  }, [waiting, refetchStats]);
  const onFirstPage = cursor === null || page.data?.prev_cursor === null;
  const items = page.data?.items ?? [];
  const liveLogs = useLiveLogs(project.id, filters, live && onFirstPage, onFirstPage ? items[0]?.time : undefined);
  const shown = onFirstPage ? [...liveLogs.arrived.filter((e) => !items.some((i) => i.id === e.id)), ...items] : items;
  const fresh = useMemo(() => new Set(liveLogs.arrived.map((e) => e.id)), [liveLogs.arrived]);

  const change = (next: LogFilters) => {
    setCursor(null);
    setSearch(searchOf(next), { replace: true });
  };

  return (
    <section className="page logs-page" aria-labelledby="logs-title">
      <div className="page-header">
        <div>
          <h1 id="logs-title">Logs</h1>
          <p className="muted">Every request to this project's gateway address, newest first.</p>
        </div>
        <div>
          <label className="switch-row live-toggle">
            <input type="checkbox" role="switch" checked={live} onChange={(event) => setLive(event.target.checked)} aria-describedby="live-hint" />
            <span>Live</span>
          </label>
          <span id="live-hint" className="visually-hidden">
            New requests appear at the top as they arrive
          </span>
        </div>
      </div>
      <LogsFiltersForm filters={filters} onChange={change} />

      {stats.isPending ? (
        <Loading label="Loading charts…" />
      ) : stats.error || !stats.data ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} title="The charts could not be loaded" />
      ) : (
        <>
          <LogsTotals totals={stats.data.totals} />
          <div className="log-charts">
            <RequestsChart buckets={stats.data.buckets} />
            <LatencyChart buckets={stats.data.buckets} />
          </div>
        </>
      )}

      {page.isPending ? (
        <Loading label="Loading logs…" />
      ) : page.error || !page.data ? (
        <ErrorState error={page.error} onRetry={() => void page.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title="No requests match">
          <span>
            Requests to <code>{project.base_url}</code> show up here within seconds; this list checks for them every few seconds. Change the filters or the time range to see others.
          </span>
        </EmptyState>
      ) : (
        <LogsTable entries={shown} fresh={fresh} onDetails={setOpen} />
      )}

      <nav className="pager" aria-label="Pages">
        <button type="button" className="button secondary" disabled={onFirstPage || page.isFetching} onClick={() => setCursor(page.data?.prev_cursor ?? null)}>
          Back
        </button>
        <button type="button" className="button secondary" disabled={!page.data?.next_cursor || page.isFetching} onClick={() => setCursor(page.data?.next_cursor ?? null)}>
          Next
        </button>
      </nav>
      {open && <LogDetailsDialog projectId={project.id} entry={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
