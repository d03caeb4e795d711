import type { RequestLogEvent } from '@flowgate/contracts';
import { latencyBucketOf, ROLLUP_HOUR, ROLLUP_MINUTE } from '@flowgate/db';

/**
 * The request_log_rollups rows a batch of newly inserted events adds to, aggregated here in
 * JavaScript: measured, this costs a few µs per event, where the same GROUPING SETS
 * aggregation in SQL over the INSERT's RETURNING rows cost more than the rows themselves.
 *
 * Groupings, per environment (live, preview): the whole project (method '', status 0) and per
 * method and status, each per minute and per hour, written as the writer's `shard`. Per-endpoint groupings are left out on purpose:
 * a busy mix (the ingest benchmark: 200 projects × 17 endpoints) gives about one endpoint
 * cell per event, which would double the cost of ingesting (docs/log-pipeline.md).
 */
export interface RollupColumns {
  projectIds: string[];
  environments: string[];
  spans: number[];
  buckets: string[];
  shards: number[];
  methods: string[];
  statuses: number[];
  counts: number[];
  errors: number[];
  histograms: string[];
}

interface Cell {
  projectId: string;
  environment: string;
  span: number;
  bucketMs: number;
  method: string;
  status: number;
  count: number;
  errors: number;
  histogram: Map<number, number>;
}

function newCell(scope: Scope, span: number, bucketMs: number, method: string, status: number): Cell {
  return { projectId: scope.projectId, environment: scope.environment, span, bucketMs, method, status, count: 0, errors: 0, histogram: new Map() };
}

/** A project's live or preview requests. */
interface Scope {
  projectId: string;
  environment: string;
}

function addTo(cell: Cell, count: number, errors: number, histogram: Map<number, number>): void {
  cell.count += count;
  cell.errors += errors;
  for (const [bucket, n] of histogram) cell.histogram.set(bucket, (cell.histogram.get(bucket) ?? 0) + n);
}

/** A project's minute: its total cell and one cell per method and status. */
interface Minute {
  total: Cell;
  byMethodStatus: Map<string, Cell>;
}

export function rollupColumns(events: readonly RequestLogEvent[], shard: number): RollupColumns {
  // Per event only the minute cells are touched (two map lookups by short keys); the hour
  // cells are summed from the minute cells afterwards, a few per project.
  const minutes = new Map<string, { scope: Scope; minutes: Map<number, Minute> }>();
  // Events of a batch share their time string often (one per millisecond at most): parse each once.
  let lastTime = '';
  let minuteMs = 0;
  for (const event of events) {
    if (event.time !== lastTime) {
      lastTime = event.time;
      const ms = Date.parse(event.time);
      minuteMs = ms - (((ms % 60_000) + 60_000) % 60_000);
    }
    // The row keeps duration_ms as REAL: bucket that value, as the SQL rebuild would.
    const latency = latencyBucketOf(Math.fround(event.duration_ms));
    const failed = event.status >= 400 ? 1 : 0;
    // Live events (nearly all) are keyed by the project id alone.
    const scopeKey = event.environment === 'live' ? event.project_id : `${event.project_id}:${event.environment}`;
    let entry = minutes.get(scopeKey);
    if (entry === undefined) minutes.set(scopeKey, (entry = { scope: { projectId: event.project_id, environment: event.environment }, minutes: new Map() }));
    const project = entry.minutes;
    let minute = project.get(minuteMs);
    if (minute === undefined) project.set(minuteMs, (minute = { total: newCell(entry.scope, ROLLUP_MINUTE, minuteMs, '', 0), byMethodStatus: new Map() }));
    const key = event.method + event.status;
    let cell = minute.byMethodStatus.get(key);
    if (cell === undefined) minute.byMethodStatus.set(key, (cell = newCell(entry.scope, ROLLUP_MINUTE, minuteMs, event.method, event.status)));
    for (const target of [minute.total, cell]) {
      target.count += 1;
      target.errors += failed;
      target.histogram.set(latency, (target.histogram.get(latency) ?? 0) + 1);
    }
  }
  const cells: Cell[] = [];
  for (const { scope, minutes: projectMinutes } of minutes.values()) {
    const hours = new Map<string, Cell>();
    for (const [minuteMs, minute] of projectMinutes) {
      const hourMs = minuteMs - (((minuteMs % 3_600_000) + 3_600_000) % 3_600_000);
      for (const cell of [minute.total, ...minute.byMethodStatus.values()]) {
        cells.push(cell);
        const key = `${hourMs}:${cell.method}${cell.status}`;
        let hour = hours.get(key);
        if (hour === undefined) hours.set(key, (hour = newCell(scope, ROLLUP_HOUR, hourMs, cell.method, cell.status)));
        addTo(hour, cell.count, cell.errors, cell.histogram);
      }
    }
    cells.push(...hours.values());
  }
  // Key order (the primary key's), so concurrent writers lock rows in one order and never deadlock.
  const sorted = cells.sort(
    (a, b) =>
      (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0) ||
      a.span - b.span ||
      (a.environment < b.environment ? -1 : a.environment > b.environment ? 1 : 0) ||
      (a.method < b.method ? -1 : a.method > b.method ? 1 : 0) ||
      a.status - b.status ||
      a.bucketMs - b.bucketMs,
  );
  const columns: RollupColumns = { projectIds: [], environments: [], spans: [], buckets: [], shards: [], methods: [], statuses: [], counts: [], errors: [], histograms: [] };
  for (const cell of sorted) {
    columns.projectIds.push(cell.projectId);
    columns.environments.push(cell.environment);
    columns.spans.push(cell.span);
    columns.buckets.push(new Date(cell.bucketMs).toISOString());
    columns.shards.push(shard);
    columns.methods.push(cell.method);
    columns.statuses.push(cell.status);
    columns.counts.push(cell.count);
    columns.errors.push(cell.errors);
    columns.histograms.push(JSON.stringify(Object.fromEntries(cell.histogram)));
  }
  return columns;
}

/** Adds the cells to request_log_rollups (histograms added bucket by bucket). */
export const UPSERT_ROLLUPS = `
INSERT INTO request_log_rollups AS r (project_id, span_s, bucket, shard, method, status, count, errors, latency_histogram, environment)
SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::smallint[], $5::text[], $6::smallint[], $7::int[], $8::int[], $9::jsonb[], $10::text[])
ON CONFLICT (project_id, span_s, environment, method, status, bucket, shard) DO UPDATE
   SET count = r.count + EXCLUDED.count,
       errors = r.errors + EXCLUDED.errors,
       latency_histogram = flowgate_merge_latency_histograms(r.latency_histogram, EXCLUDED.latency_histogram)`;

export function upsertParams(columns: RollupColumns): unknown[] {
  const c = columns;
  return [c.projectIds, c.spans, c.buckets, c.shards, c.methods, c.statuses, c.counts, c.errors, c.histograms, c.environments];
}
