import { randomUUID } from 'node:crypto';
import type { RequestLogEvent } from '@flowgate/contracts';
import type { Pool, PoolClient } from 'pg';
import { binaryCopyData, COPY_COLUMNS as COLUMNS } from './copy-binary';
import { copyFrom, copyText } from './copy-from';
import { COPY_ROLLUP_DELTAS, rollupDeltaCopyData } from './batch-rollups';
import { type PartitionStatistics, utcDayOf } from './partition-statistics';

// The usual way in: COPY, which reads each row once and inserts the rows in bulk (measured:
// about half the PostgreSQL CPU per row of the INSERT below). COPY has no
// ON CONFLICT: an event that is already stored (a redelivery) or twice in the batch fails the
// whole COPY with a unique violation on the primary key (project_id, time, id), nothing of it
// is kept, and the batch is written again with INSERT_ROWS_RETURNING_IDS in a new transaction.
// The rows travel in COPY's binary format (copy-binary.ts: PostgreSQL reads UUIDs, times and
// numbers without parsing them); a batch with a time in another form than the gateway's goes as text.
const COPY_ROWS_BINARY = `COPY request_logs (${COLUMNS}) FROM STDIN (FORMAT binary)`;
const COPY_ROWS = `COPY request_logs (${COLUMNS}) FROM STDIN`;
const UNIQUE_VIOLATION = '23505';

// The way for a batch with a duplicate: one statement, the columns travel as arrays and
// unnest() turns them into rows. ON CONFLICT on the primary key makes a redelivered event a
// no-op; RETURNING tells which events were really inserted, and only those are added to the rollups.
const INSERT_COLUMNS = `
INSERT INTO request_logs (${COLUMNS})
SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::uuid[], $4::uuid[], $5::text[], $6::text[],
                     $7::smallint[], $8::text[], $9::real[], $10::uuid[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                     $16::boolean[], $17::text[], $18::json[])
ON CONFLICT DO NOTHING`;
const INSERT_ROWS_RETURNING_IDS = `${INSERT_COLUMNS} RETURNING id`;

// The statements of a transaction run as named prepared statements: each connection parses
// and plans them once, instead of once per batch (measured ~3 µs of PostgreSQL CPU per row at
// 150-event batches).

// Never moves backwards; keys that do not exist (deleted, or never known) match no row.
const TOUCH_KEYS = `
UPDATE api_keys AS k SET last_used_at = u.used_at
  FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, used_at)
 WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.used_at)`;

export interface WriteResult {
  /** Rows that were new; the rest of the batch was already stored. */
  inserted: number;
}

export interface RequestLogRepositoryOptions {
  /**
   * Append the rollup deltas with the rows (the default). Off only to measure what they
   * cost (bench/log-ingest.bench.ts); GET …/logs/stats reads nothing else.
   */
  rollups?: boolean;
  /** Told the rows committed per UTC day (partition-statistics.ts keeps their statistics current). */
  statistics?: Pick<PartitionStatistics, 'written'>;
}

/** Writes request-log events, their rollup deltas and the keys' last use in one transaction. */
export class RequestLogRepository {
  private readonly rollups: boolean;
  private readonly statistics: Pick<PartitionStatistics, 'written'> | null;

  constructor(
    private readonly pool: Pool,
    options: RequestLogRepositoryOptions = {},
  ) {
    this.rollups = options.rollups !== false;
    this.statistics = options.statistics ?? null;
  }

  async write(events: readonly RequestLogEvent[]): Promise<WriteResult> {
    if (events.length === 0) return { inserted: 0 };
    try {
      return await this.transaction(events, 'copy');
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      // Some event is stored already (or twice in the batch): nothing was kept, insert skipping those.
      return await this.transaction(events, 'insert');
    }
  }

  private async transaction(events: readonly RequestLogEvent[], way: 'copy' | 'insert'): Promise<WriteResult> {
    const client = await this.pool.connect();
    // A checked-out client that loses its server between two queries emits 'error'; without a
    // listener that would end the process. The next query fails instead, and we retry.
    const onLost = () => undefined;
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      const fresh = way === 'copy' ? await this.copyRows(client, events) : await this.insertRows(client, events);
      // Appended, not merged: the fold adds them to the rollups later (docs/log-pipeline.md).
      if (this.rollups && fresh.length > 0) await copyFrom(client, COPY_ROLLUP_DELTAS, rollupDeltaCopyData(fresh, randomUUID()));
      const keys = latestUsePerKey(events);
      if (keys.ids.length > 0) await client.query({ name: 'flowgate-touch-keys', text: TOUCH_KEYS, values: [keys.ids, keys.times] });
      await client.query('COMMIT');
      client.off('error', onLost);
      client.release();
      if (this.statistics) countByDay(fresh, this.statistics);
      return { inserted: fresh.length };
    } catch (error) {
      // The connection is kept when the server refused the data and the transaction rolled
      // back cleanly; one that failed otherwise (lost, timed out) is not reused.
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      client.off('error', onLost);
      client.release(rolledBack && isDataError(error) ? undefined : (error as Error));
      throw error;
    }
  }

  /** COPYs the rows; every event is new (a duplicate fails the COPY). */
  private async copyRows(client: PoolClient, events: readonly RequestLogEvent[]): Promise<readonly RequestLogEvent[]> {
    const binary = binaryCopyData(events);
    await (binary === null ? copyFrom(client, COPY_ROWS, copyData(events)) : copyFrom(client, COPY_ROWS_BINARY, binary));
    return events;
  }

  /** Inserts the rows that are not stored yet; returns the events that were new. */
  private async insertRows(client: PoolClient, events: readonly RequestLogEvent[]): Promise<readonly RequestLogEvent[]> {
    if (!this.rollups) {
      const { rowCount } = await client.query({ name: 'flowgate-insert-request-logs-plain', text: INSERT_COLUMNS, values: toColumns(events) });
      return events.slice(0, rowCount ?? 0); // only the count is used without rollups
    }
    const { rows } = await client.query<{ id: string }>({ name: 'flowgate-insert-request-logs', text: INSERT_ROWS_RETURNING_IDS, values: toColumns(events) });
    if (rows.length === events.length) return events;
    // Each returned id once: an event that came twice in the batch was inserted once.
    const ids = new Set(rows.map((row) => row.id));
    return events.filter((event) => ids.delete(event.id));
  }

  /** Whether the schema this service writes to exists (a migrated database). */
  async hasSchema(): Promise<boolean> {
    const { rows } = await this.pool.query<{ ok: boolean }>(
      "SELECT to_regclass('request_logs') IS NOT NULL AND to_regclass('api_keys') IS NOT NULL AND to_regclass('request_log_rollup_deltas') IS NOT NULL AS ok",
    );
    return rows[0]?.ok === true;
  }
}

/** Tells `statistics` the rows per UTC day (a batch is nearly always of one day). */
function countByDay(events: readonly RequestLogEvent[], statistics: Pick<PartitionStatistics, 'written'>): void {
  let day = '';
  let rows = 0;
  for (const event of events) {
    const eventDay = utcDayOf(event.time);
    if (eventDay !== day) {
      if (rows > 0 && day !== '') statistics.written(day, rows);
      day = eventDay;
      rows = 0;
    }
    rows++;
  }
  if (rows > 0 && day !== '') statistics.written(day, rows);
}

/**
 * The batch as PostgreSQL array literals, one per column, built here as text: node-postgres
 * would otherwise convert every element through its generic array encoder (escaping each one
 * with a regular expression), which measured ~2 µs per event. UUIDs, ISO times and numbers
 * never need quoting (the event schema has checked their form); text is always quoted.
 */
function toColumns(events: readonly RequestLogEvent[]): string[] {
  return [
    plainArray(events, (e) => e.id),
    plainArray(events, (e) => e.time),
    plainArray(events, (e) => e.project_id),
    plainArray(events, (e) => e.endpoint_id),
    textArray(events, (e) => e.path),
    textArray(events, (e) => e.method),
    plainArray(events, (e) => e.status),
    textArray(events, (e) => e.code),
    plainArray(events, (e) => e.duration_ms),
    plainArray(events, (e) => e.key_id),
    textArray(events, (e) => e.query),
    textArray(events, (e) => e.message),
    textArray(events, (e) => e.error_node_id),
    textArray(events, (e) => e.environment),
    textArray(events, (e) => e.trigger),
    plainArray(events, (e) => (e.streamed === true ? 't' : 'f')),
    textArray(events, (e) => e.cache ?? null),
    textArray(events, (e) => e.details),
  ];
}

/** An array literal of values that need no quoting; null is NULL. */
function plainArray(events: readonly RequestLogEvent[], value: (event: RequestLogEvent) => string | number | null): string {
  let literal = '{';
  for (let i = 0; i < events.length; i += 1) {
    const v = value(events[i]);
    literal += (i === 0 ? '' : ',') + (v === null ? 'NULL' : v);
  }
  return `${literal}}`;
}

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

/** An array literal of text values, each quoted (a backslash before `"` and before a backslash); null is NULL. */
function textArray<T>(items: readonly T[], value: (item: T) => string | null): string {
  let literal = '{';
  for (let i = 0; i < items.length; i += 1) {
    const v = value(items[i]);
    literal += (i === 0 ? '' : ',') + (v === null ? 'NULL' : `"${NEEDS_ESCAPE.test(v) ? v.replace(ESCAPED, '\\$&') : v}"`);
  }
  return `${literal}}`;
}

/**
 * The batch as COPY text: one line per event, columns separated by tabs, `\\N` for null. UUIDs,
 * ISO times and numbers never need escaping (the event schema has checked their form); in
 * text a backslash, tab, newline or carriage return is written as its backslash escape.
 */
export function copyData(events: readonly RequestLogEvent[]): Buffer {
  let text = '';
  for (const e of events) {
    text +=
      `${e.id}\t${e.time}\t${e.project_id}\t${e.endpoint_id ?? '\\N'}\t${copyText(e.path)}\t${copyText(e.method)}\t${e.status}` +
      `\t${copyTextOrNull(e.code)}\t${e.duration_ms}\t${e.key_id ?? '\\N'}\t${copyText(e.query)}\t${copyTextOrNull(e.message)}` +
      `\t${copyTextOrNull(e.error_node_id)}\t${copyText(e.environment)}\t${copyText(e.trigger)}` +
      `\t${e.streamed === true ? 't' : 'f'}\t${copyTextOrNull(e.cache ?? null)}\t${copyTextOrNull(e.details)}\n`;
  }
  return Buffer.from(text, 'utf8');
}

function copyTextOrNull(value: string | null): string {
  return value === null ? '\\N' : copyText(value);
}

/** The latest use of each key in the batch, ids sorted so concurrent writers lock in one order. */
export function latestUsePerKey(events: readonly RequestLogEvent[]): { ids: string[]; times: string[] } {
  const latest = new Map<string, { ms: number; time: string }>();
  for (const event of events) {
    if (event.key_id === null) continue;
    const ms = Date.parse(event.time);
    const seen = latest.get(event.key_id);
    if (!seen || ms > seen.ms) latest.set(event.key_id, { ms, time: event.time });
  }
  const ids = [...latest.keys()].sort();
  return { ids, times: ids.map((id) => latest.get(id)!.time) };
}

/**
 * PostgreSQL refused the data itself (SQLSTATE class 22 "data exception" or 23 "integrity
 * constraint violation"): retrying the same rows can never succeed. Anything else — the
 * server down, a lost connection, a deadlock — is worth retrying.
 */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}
