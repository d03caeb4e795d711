import { useEffect, useRef, useState } from 'react';
import type { LogEntry } from '../../api/types';
import type { LogFilters } from './log-filters';
import { fetchNewerLogs } from './logs-queries';

export const LIVE_POLL_MS = 3000;

/**
 * Live: asks every few seconds for entries newer than the newest one shown and keeps them, to
 * be shown above the page (newest first). Rows are only ever added above; the browser's scroll
 * anchoring keeps the rows being read where they are.
 */
export function useLiveLogs(projectId: string, filters: LogFilters, on: boolean, newestShown: string | undefined) {
  const [arrived, setArrived] = useState<LogEntry[]>([]);
  const known = useRef(new Set<string>());
  const since = arrived[0]?.time ?? newestShown;

  useEffect(() => {
    setArrived([]);
    known.current = new Set();
  }, [projectId, filters, on]);

  useEffect(() => {
    if (!on) return;
    let stopped = false;
    const poll = async () => {
      const from = since ?? new Date(Date.now() - 60_000).toISOString();
      const page = await fetchNewerLogs(projectId, filters, from).catch(() => null);
      if (stopped || !page) return;
      const fresh = page.items.filter((entry) => !known.current.has(entry.id) && entry.time >= from);
      if (fresh.length === 0) return;
      for (const entry of fresh) known.current.add(entry.id);
      setArrived((current) => [...fresh, ...current]);
    };
    const timer = setInterval(() => void poll(), LIVE_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [on, projectId, filters, since]);

  return { arrived };
}
