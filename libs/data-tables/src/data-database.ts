import type { Pool, PoolClient, PoolConfig } from 'pg';

/**
 * The data database (DATA_DATABASE_URL): one schema per project holding its tables
 * (storage-names.ts), and the `flowgate` schema with the usage counters and the limits that a
 * trigger on every table enforces (docs/data-tables.md "Limits").
 */

export interface DataLimits {
  maxRowsPerProject: number;
  maxBytesPerProject: number;
  maxBytesPerRow: number;
}

/** Counters are spread over this many rows per table (by backend), so writers on different connections do not queue on one row. */
const USAGE_SLOTS = 16;

// Idempotent: run by `npm run db:migrate`, the control plane at boot and the tests' setup.
const SETUP_SQL = `
CREATE SCHEMA IF NOT EXISTS flowgate;
CREATE TABLE IF NOT EXISTS flowgate.limits (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  max_rows bigint NOT NULL,
  max_bytes bigint NOT NULL,
  max_row_bytes bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS flowgate.usage (
  table_id uuid NOT NULL,
  slot smallint NOT NULL,
  project_id uuid NOT NULL,
  rows bigint NOT NULL,
  bytes bigint NOT NULL,
  PRIMARY KEY (table_id, slot)
) WITH (fillfactor = 50);
-- Checked first: CREATE INDEX IF NOT EXISTS would lock the table against writers even when the index exists.
DO $$ BEGIN
  IF to_regclass('flowgate.usage_project_idx') IS NULL THEN CREATE INDEX usage_project_idx ON flowgate.usage (project_id); END IF;
END $$;

-- One statement-level trigger per table and operation; the transition tables hold the rows the
-- statement wrote, so a statement of one row or of a CSV batch pays one counter update.
CREATE OR REPLACE FUNCTION flowgate.count_usage() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint := 0;
  added_bytes bigint := 0;
  largest bigint := 0;
  removed bigint := 0;
  removed_bytes bigint := 0;
  total_rows bigint;
  total_bytes bigint;
  lim flowgate.limits;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT count(*), coalesce(sum(pg_column_size(r.*)), 0), coalesce(max(pg_column_size(r.*)), 0)
      INTO added, added_bytes, largest FROM new_rows r;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT count(*), coalesce(sum(pg_column_size(r.*)), 0) INTO removed, removed_bytes FROM old_rows r;
  END IF;
  SELECT * INTO lim FROM flowgate.limits;
  IF largest > lim.max_row_bytes THEN
    RAISE EXCEPTION USING ERRCODE = 'FGR01',
      MESSAGE = format('a row would take %s bytes; the limit is %s bytes per row', largest, lim.max_row_bytes);
  END IF;
  INSERT INTO flowgate.usage AS u (table_id, slot, project_id, rows, bytes)
    VALUES (TG_ARGV[1]::uuid, pg_backend_pid() % ${USAGE_SLOTS}, TG_ARGV[0]::uuid, added - removed, added_bytes - removed_bytes)
    ON CONFLICT (table_id, slot) DO UPDATE SET rows = u.rows + excluded.rows, bytes = u.bytes + excluded.bytes;
  IF added > removed OR added_bytes > removed_bytes THEN
    SELECT sum(rows), sum(bytes) INTO total_rows, total_bytes FROM flowgate.usage WHERE project_id = TG_ARGV[0]::uuid;
    IF added > removed AND total_rows > lim.max_rows THEN
      RAISE EXCEPTION USING ERRCODE = 'FGR02',
        MESSAGE = format('the project would hold %s rows; the limit is %s', total_rows, lim.max_rows);
    END IF;
    IF added_bytes > removed_bytes AND total_bytes > lim.max_bytes THEN
      RAISE EXCEPTION USING ERRCODE = 'FGR03',
        MESSAGE = format('the project''s rows would take %s bytes; the limit is %s', total_bytes, lim.max_bytes);
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;

-- Conversions of a column's text form into another type (a type change), NULL when the text does not convert.
CREATE OR REPLACE FUNCTION flowgate.to_number(value text) RETURNS double precision LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
  IF value IS NULL OR value !~ '^\\s*[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?\\s*$' THEN RETURN NULL; END IF;
  RETURN value::double precision;
EXCEPTION WHEN others THEN RETURN NULL;
END
$fn$;
CREATE OR REPLACE FUNCTION flowgate.to_boolean(value text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE lower(trim(value)) WHEN 'true' THEN true WHEN 't' THEN true WHEN '1' THEN true WHEN 'yes' THEN true
    WHEN 'false' THEN false WHEN 'f' THEN false WHEN '0' THEN false WHEN 'no' THEN false END
$fn$;
CREATE OR REPLACE FUNCTION flowgate.to_datetime(value text) RETURNS timestamptz LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  IF value IS NULL OR value !~ '^\\s*\\d{4}-\\d{2}-\\d{2}' THEN RETURN NULL; END IF;
  RETURN value::timestamptz;
EXCEPTION WHEN others THEN RETURN NULL;
END
$fn$;
`;

/**
 * Creates the `flowgate` schema, its tables and functions (idempotent, safe to run concurrently:
 * a transaction-scoped advisory lock, which also holds behind PgBouncer in transaction mode).
 */
export async function setupDataDatabase(pool: Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('flowgate:data-setup', 0))");
    await client.query(SETUP_SQL);
  });
}

/** Writes the limits the usage trigger enforces (the control plane's configuration). */
export async function writeDataLimits(pool: Pool, limits: DataLimits): Promise<void> {
  await pool.query(
    `INSERT INTO flowgate.limits (singleton, max_rows, max_bytes, max_row_bytes) VALUES (true, $1, $2, $3)
     ON CONFLICT (singleton) DO UPDATE SET max_rows = excluded.max_rows, max_bytes = excluded.max_bytes, max_row_bytes = excluded.max_row_bytes`,
    [limits.maxRowsPerProject, limits.maxBytesPerProject, limits.maxBytesPerRow],
  );
}

const TIMESTAMPTZ_OID = 1184;

/** `datetime` values leave the database as ISO 8601 text in UTC, as the contract shows them. */
function dataTypes(types: typeof import('pg').types): PoolConfig['types'] {
  const parseTimestamp = types.getTypeParser(TIMESTAMPTZ_OID);
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === TIMESTAMPTZ_OID ? (text: string) => (parseTimestamp(text) as Date).toISOString() : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
  };
}

export interface DataPoolOptions {
  url: string;
  /** Connections this process opens at most. */
  max: number;
  /** Server-side limit of one statement (ms); 0 = none. */
  statementTimeoutMs?: number;
  applicationName: string;
}

/**
 * A pool on the data database. Statements are unnamed (no server-side prepared statements),
 * so the pool works through PgBouncer in transaction mode (docs/data-tables.md "PgBouncer").
 */
export function createDataPool({ url, max, statementTimeoutMs = 0, applicationName }: DataPoolOptions): Pool {
  // Required here, not at load: a gateway loads `pg` only once a table block runs.
  const { Pool, types } = require('pg') as typeof import('pg');
  const config: PoolConfig = { connectionString: url, max, application_name: applicationName, types: dataTypes(types) };
  if (statementTimeoutMs > 0) config.statement_timeout = statementTimeoutMs;
  const pool = new Pool(config);
  // An idle connection the server closed must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in a transaction on one connection of the pool. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export { USAGE_SLOTS };
