import type { RequestLogEvent } from '@flowgate/contracts';
import { latencyBucketOf } from '@flowgate/db';
import { HEADER, POSTGRES_EPOCH_MS, RowWriter, type UuidCache } from './copy-binary';

/**
 * What a batch of newly inserted events adds to the stats rollups, as rows of
 * request_log_rollup_deltas: one per project, environment, UTC minute, method and status, with
 * the count and the latency histogram (bucket → count) of its events. Appended with the rows
 * (COPY, no lookup, no merge); the fold (foldRequestLogRollupDeltas, libs/db) derives the
 * project's totals and the hours from them. A project thus costs a batch one appended row per
 * minute, method and status it had events in, where it cost four or more upserted cells.
 * The rows travel in COPY's binary format (copy-binary.ts): PostgreSQL reads the UUIDs, the
 * minute and the two histogram arrays without parsing their text (array_in is the slow one).
 *
 * Per-endpoint groupings are left out on purpose: a busy mix (the ingest benchmark: 200
 * projects × 17 endpoints) gives about one endpoint cell per event (docs/log-pipeline.md).
 */
export const COPY_ROLLUP_DELTAS =
  'COPY request_log_rollup_deltas (project_id, environment, bucket, method, status, write_id, count, latency_buckets, latency_counts) FROM STDIN (FORMAT binary)';
const FIELDS = 9;

interface Cell {
  count: number;
  histogram: Map<number, number>;
}

/** A project's live or preview events of a batch: by UTC minute (`YYYY-MM-DDTHH:MM`), then by method and status. */
interface Scope {
  projectId: string;
  environment: string;
  minutes: Map<string, Map<string, { method: string; status: number; cell: Cell }>>;
}

/** The deltas of `events` as binary COPY data, each row tagged `writeId` (one per transaction). */
export function rollupDeltaCopyData(events: readonly RequestLogEvent[], writeId: string): Buffer {
  // Per event: three map lookups by short keys (project, minute, method and status).
  const scopes = new Map<string, Scope>();
  let lastTime = '';
  let minute = '';
  for (const event of events) {
    if (event.time !== lastTime) {
      lastTime = event.time;
      minute = utcMinuteOf(event.time);
    }
    // Live events (nearly all) are keyed by the project id alone.
    const scopeKey = event.environment === 'live' ? event.project_id : `${event.project_id}:${event.environment}`;
    let scope = scopes.get(scopeKey);
    if (scope === undefined) scopes.set(scopeKey, (scope = { projectId: event.project_id, environment: event.environment, minutes: new Map() }));
    let cells = scope.minutes.get(minute);
    if (cells === undefined) scope.minutes.set(minute, (cells = new Map()));
    const key = event.method + event.status;
    let entry = cells.get(key);
    if (entry === undefined) cells.set(key, (entry = { method: event.method, status: event.status, cell: { count: 0, histogram: new Map() } }));
    // The row keeps duration_ms as REAL: bucket that value, as the SQL rebuild would.
    const latency = latencyBucketOf(Math.fround(event.duration_ms));
    entry.cell.count += 1;
    entry.cell.histogram.set(latency, (entry.cell.histogram.get(latency) ?? 0) + 1);
  }
  // Room for every row: the fixed part, the text at 3 bytes a character, 14 bytes a histogram entry (6 in one array, 8 in the other).
  let capacity = HEADER.length + 2;
  for (const scope of scopes.values()) {
    for (const cells of scope.minutes.values()) {
      for (const { method, cell } of cells.values()) capacity += ROW_FIXED_BYTES + 3 * (scope.environment.length + method.length) + 14 * cell.histogram.size;
    }
  }
  const writer = new RowWriter(Buffer.allocUnsafe(capacity));
  const writeIdCache: UuidCache = { text: '', bytes: new Uint8Array(16) }; // the same id on every row
  writer.bytes(HEADER);
  for (const scope of scopes.values()) {
    for (const [minute, cells] of scope.minutes) {
      const micros = BigInt(Date.parse(`${minute}:00Z`) - POSTGRES_EPOCH_MS) * 1000n;
      for (const { method, status, cell } of cells.values()) {
        writer.int16(FIELDS);
        writer.uuid(scope.projectId, writer.projectCache);
        writer.text(scope.environment);
        writer.micros(micros);
        writer.text(method);
        writer.int32(2);
        writer.int16(status);
        writer.uuid(writeId, writeIdCache);
        writer.int32(4);
        writer.int32(cell.count);
        writer.intArray(cell.histogram.keys(), cell.histogram.size, 2);
        writer.intArray(cell.histogram.values(), cell.histogram.size, 4);
      }
    }
  }
  writer.int16(-1); // the trailer
  return writer.done();
}

/** A row without its text and histogram: field count, lengths, two UUIDs, the minute, status, count, two array headers. */
const ROW_FIXED_BYTES = 2 + FIELDS * 4 + 2 * 16 + 8 + 2 + 4 + 2 * 20;

/**
 * The UTC minute of an event time as `YYYY-MM-DDTHH:MM`: the gateway's form (`…:SS.mmmZ`, 24
 * characters, checked by the event schema) is cut; any other form of ISO 8601 is parsed.
 */
function utcMinuteOf(time: string): string {
  if (time.length === 24 && time.charCodeAt(23) === 90 /* Z */) return time.slice(0, 16);
  return new Date(Date.parse(time)).toISOString().slice(0, 16);
}
