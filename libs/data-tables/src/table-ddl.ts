import { randomBytes } from 'node:crypto';
import type { DataColumn } from '@flowgate/contracts';
import type { Pool, PoolClient } from 'pg';
import { conversionSql, STORAGE_TYPE } from './column-sql';
import { DataError } from './data-error';
import { projectSchemaName, qualifiedTable, quoteIdent, type TableLocation } from './storage-names';

/**
 * Creating, changing and dropping a table's storage. Every statement that takes a lock readers
 * would wait behind is short and runs under `lock_timeout` (LOCK_TIMEOUT_MS); work that reads
 * or writes the whole table (a type change's backfill, a new index, a NOT NULL check) runs
 * before, without blocking readers (docs/decisions.md "Data tables: schema changes").
 */

/** How long a short DDL statement waits for its lock before giving up (a waiting ACCESS EXCLUSIVE blocks new readers). */
const LOCK_TIMEOUT_MS = 2000;
/** Rows converted per statement during a type change. */
const BACKFILL_BATCH = 5000;

const randomName = (prefix: string): string => `${prefix}_${randomBytes(6).toString('hex')}`;

function columnDefinition(column: DataColumn): string {
  return `${quoteIdent(column.name)} ${STORAGE_TYPE[column.type]}${column.required ? ' NOT NULL' : ''}`;
}

function usageTriggers(location: TableLocation): string[] {
  const table = qualifiedTable(location);
  const args = `'${location.projectId}', '${location.tableId}'`;
  return [
    `CREATE TRIGGER fg_usage_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION flowgate.count_usage(${args})`,
    `CREATE TRIGGER fg_usage_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION flowgate.count_usage(${args})`,
    `CREATE TRIGGER fg_usage_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION flowgate.count_usage(${args})`,
  ];
}

const indexStatement = (location: TableLocation, column: string, unique: boolean, concurrently: boolean): string =>
  `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${concurrently ? 'CONCURRENTLY ' : ''}${quoteIdent(randomName(unique ? 'u' : 'i'))} ON ${qualifiedTable(location)} (${quoteIdent(column)})`;

/** Creates the table (in the caller's transaction): id, timestamps, the columns, their indexes, the usage triggers. */
export async function createTableStorage(client: PoolClient, location: TableLocation, columns: readonly DataColumn[]): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(projectSchemaName(location.projectId))}`);
  const definitions = [
    '"id" uuid PRIMARY KEY',
    '"created_at" timestamptz NOT NULL DEFAULT now()',
    '"updated_at" timestamptz NOT NULL DEFAULT now()',
    ...columns.map(columnDefinition),
  ];
  await client.query(`CREATE TABLE ${qualifiedTable(location)} (${definitions.join(', ')})`);
  for (const column of columns) if (column.unique || column.indexed) await client.query(indexStatement(location, column.name, column.unique, false));
  for (const statement of usageTriggers(location)) await client.query(statement);
}

/** Drops the table and its usage counters (in the caller's transaction). */
export async function dropTableStorage(client: PoolClient, location: TableLocation): Promise<void> {
  await client.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
  await client.query(`DROP TABLE IF EXISTS ${qualifiedTable(location)}`);
  await client.query('DELETE FROM flowgate.usage WHERE table_id = $1', [location.tableId]);
}

/** Drops every table of a project (the project was deleted). */
export async function dropProjectStorage(pool: Pool, projectId: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(projectSchemaName(projectId))} CASCADE`);
  await pool.query('DELETE FROM flowgate.usage WHERE project_id = $1', [projectId]);
}

/** Rows per table of a project, from the usage counters (no count(*) over the rows). */
export async function rowCounts(pool: Pool, projectId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ table_id: string; rows: string }>(
    'SELECT table_id, sum(rows)::text AS rows FROM flowgate.usage WHERE project_id = $1 GROUP BY table_id',
    [projectId],
  );
  return new Map(rows.map((row) => [row.table_id, Number(row.rows)]));
}

/** A new column list as PATCH gives it: a column keeps its data under its name, or under `renamed_from`. */
export interface ColumnUpdate extends DataColumn {
  renamed_from?: string;
}

interface KeptColumn {
  before: DataColumn;
  after: DataColumn;
  /** The column holding the converted values during a type change. */
  converted: string | null;
}

/** What a column list change does, worked out from the old and new lists. */
export interface ColumnPlan {
  dropped: DataColumn[];
  added: DataColumn[];
  kept: KeptColumn[];
}

/** Matches the new list to the old one; a `renamed_from` naming no column is a DataError. */
export function planColumns(before: readonly DataColumn[], after: readonly ColumnUpdate[]): ColumnPlan {
  const old = new Map(before.map((column) => [column.name, column]));
  const claimed = new Set<string>();
  const plan: ColumnPlan = { dropped: [], added: [], kept: [] };
  for (const { renamed_from, ...column } of after) {
    const source = renamed_from ?? column.name;
    const previous = old.get(source);
    if (renamed_from !== undefined && previous === undefined)
      throw new DataError('unknown_column', `renamed_from: the table has no column ${renamed_from}`, column.name);
    if (previous === undefined) {
      plan.added.push(column);
      continue;
    }
    if (claimed.has(source)) throw new DataError('invalid_value', `two columns keep the data of ${source}`, column.name);
    claimed.add(source);
    plan.kept.push({ before: previous, after: column, converted: null });
  }
  plan.dropped = before.filter((column) => !claimed.has(column.name));
  return plan;
}

interface IndexInfo {
  name: string;
  unique: boolean;
}

async function indexesOf(pool: Pool | PoolClient, location: TableLocation, column: string): Promise<IndexInfo[]> {
  const { rows } = await pool.query<IndexInfo>(
    `SELECT i.relname AS name, x.indisunique AS unique
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
      WHERE x.indrelid = $1::regclass AND x.indnatts = 1 AND NOT x.indisprimary AND a.attname = $2`,
    [qualifiedTable(location), column],
  );
  return rows;
}

/**
 * Changes a table's columns in two phases. `prepare` does the long work with readers and
 * writers going on: finds the first row a change cannot take (409 `conversion_failed` naming
 * it), converts a changed column into a new one kept in step by a trigger, builds new indexes
 * concurrently, validates NOT NULL as a constraint. `apply` (in the caller's transaction, short)
 * swaps columns, renames, adds and drops. `discard` undoes `prepare` when the change is abandoned.
 */
export class ColumnChange {
  private readonly table: string;
  private readonly cleanups: string[] = [];
  private readonly checks: Array<{ column: string; constraint: string }> = [];

  constructor(
    private readonly pool: Pool,
    private readonly location: TableLocation,
    readonly plan: ColumnPlan,
  ) {
    this.table = qualifiedTable(location);
  }

  async prepare(): Promise<void> {
    try {
      for (const column of this.plan.added) if (column.required) await this.refuseIfAnyRow(column.name);
      for (const kept of this.plan.kept) await this.prepareKept(kept);
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  private async refuseIfAnyRow(column: string): Promise<void> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT "id" FROM ${this.table} ORDER BY "id" LIMIT 1`);
    if (rows[0]) throw new DataError('conversion_failed', `row ${rows[0].id} has no value for the required column ${column}`, column, rows[0].id);
  }

  private async prepareKept(kept: KeptColumn): Promise<void> {
    const { before, after } = kept;
    const source = quoteIdent(before.name);
    let target = before.name;
    if (before.type !== after.type) {
      const conversion = conversionSql(before.name, before.type, after.type);
      const bad = await this.pool.query<{ id: string; value: string }>(
        `SELECT "id", ${source}::text AS value FROM ${this.table} WHERE ${source} IS NOT NULL AND (${conversion}) IS NULL ORDER BY "id" LIMIT 1`,
      );
      if (bad.rows[0]) {
        const { id, value } = bad.rows[0];
        throw new DataError('conversion_failed', `row ${id}: ${before.name} ${JSON.stringify(value)} cannot become ${after.type}`, after.name, id);
      }
      target = randomName('fg_new');
      kept.converted = target;
      await this.shortDdl(`ALTER TABLE ${this.table} ADD COLUMN ${quoteIdent(target)} ${STORAGE_TYPE[after.type]}`);
      this.cleanups.push(`ALTER TABLE ${this.table} DROP COLUMN IF EXISTS ${quoteIdent(target)}`);
      await this.keepInStep(before.name, target, conversion);
      await this.backfill(target, conversion);
    }
    if (after.required && (!before.required || target !== before.name)) {
      const empty = await this.pool.query<{ id: string }>(`SELECT "id" FROM ${this.table} WHERE ${source} IS NULL ORDER BY "id" LIMIT 1`);
      if (empty.rows[0]) throw new DataError('conversion_failed', `row ${empty.rows[0].id} has no ${before.name}; a required column needs a value in every row`, after.name, empty.rows[0].id);
      const constraint = randomName('fg_nn');
      await this.shortDdl(`ALTER TABLE ${this.table} ADD CONSTRAINT ${quoteIdent(constraint)} CHECK (${quoteIdent(target)} IS NOT NULL) NOT VALID`);
      this.cleanups.push(`ALTER TABLE ${this.table} DROP CONSTRAINT IF EXISTS ${quoteIdent(constraint)}`);
      await this.pool.query(`ALTER TABLE ${this.table} VALIDATE CONSTRAINT ${quoteIdent(constraint)}`);
      this.checks.push({ column: target, constraint });
    }
    const existing = target === before.name ? await indexesOf(this.pool, this.location, before.name) : [];
    const wanted: Array<{ unique: boolean }> = [];
    if (after.unique && !existing.some((index) => index.unique)) wanted.push({ unique: true });
    if (after.indexed && !after.unique && existing.length === 0) wanted.push({ unique: false });
    for (const { unique } of wanted) await this.buildIndex(target, after.name, unique);
  }

  /** Writes during the conversion reach the new column too (a value that cannot convert fails the write). */
  private async keepInStep(column: string, target: string, conversion: string): Promise<void> {
    const fn = `flowgate.${quoteIdent(randomName('fg_sync'))}`;
    const trigger = quoteIdent(randomName('fg_sync'));
    const newRow = conversion.replaceAll(quoteIdent(column), `NEW.${quoteIdent(column)}`);
    await this.pool.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        NEW.${quoteIdent(target)} := ${newRow};
        IF NEW.${quoteIdent(column)} IS NOT NULL AND NEW.${quoteIdent(target)} IS NULL THEN
          RAISE EXCEPTION USING ERRCODE = '22P02', COLUMN = '${column}', MESSAGE = '${column} is being converted and this value cannot be';
        END IF;
        RETURN NEW;
      END $fn$`);
    this.cleanups.push(`DROP FUNCTION IF EXISTS ${fn}() CASCADE`);
    await this.shortDdl(`CREATE TRIGGER ${trigger} BEFORE INSERT OR UPDATE ON ${this.table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  }

  private async backfill(target: string, conversion: string): Promise<void> {
    let last: string | null = null;
    for (;;) {
      const { rows }: { rows: Array<{ last: string | null }> } = await this.pool.query(
        `WITH batch AS (SELECT "id" FROM ${this.table} WHERE $1::uuid IS NULL OR "id" > $1::uuid ORDER BY "id" LIMIT ${BACKFILL_BATCH}),
              done AS (UPDATE ${this.table} t SET ${quoteIdent(target)} = ${conversion} FROM batch WHERE t."id" = batch."id" RETURNING t."id")
         SELECT max("id"::text) AS last FROM done`,
        [last],
      );
      if (!rows[0]?.last) return;
      last = rows[0].last;
    }
  }

  private async buildIndex(column: string, name: string, unique: boolean): Promise<void> {
    const before = new Set((await indexesOf(this.pool, this.location, column)).map((index) => index.name));
    try {
      await this.pool.query(indexStatement(this.location, column, unique, true));
    } catch (error) {
      // A failed concurrent build leaves an invalid index behind.
      for (const index of await indexesOf(this.pool, this.location, column))
        if (!before.has(index.name)) await this.pool.query(`DROP INDEX CONCURRENTLY IF EXISTS ${quoteIdent(projectSchemaName(this.location.projectId))}.${quoteIdent(index.name)}`);
      if ((error as { code?: string }).code === '23505') throw new DataError('unique_violation', `${name} has the same value in more than one row`, name);
      throw error;
    }
  }

  /** The short part, in the caller's transaction. */
  async apply(client: PoolClient): Promise<void> {
    await client.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
    const alter = (action: string) => client.query(`ALTER TABLE ${this.table} ${action}`);
    for (const column of this.plan.dropped) await alter(`DROP COLUMN ${quoteIdent(column.name)}`);
    // Renames through temporary names, so that swapping two names works.
    const moves: Array<{ from: string; to: string }> = [];
    for (const { before, after, converted } of this.plan.kept) {
      if (converted !== null) {
        await alter(`DROP COLUMN ${quoteIdent(before.name)}`);
        moves.push({ from: converted, to: after.name });
      } else if (before.name !== after.name) moves.push({ from: before.name, to: after.name });
    }
    const parked = moves.map((move) => ({ ...move, parked: randomName('fg_mv') }));
    for (const move of parked) await alter(`RENAME COLUMN ${quoteIdent(move.from)} TO ${quoteIdent(move.parked)}`);
    for (const move of parked) await alter(`RENAME COLUMN ${quoteIdent(move.parked)} TO ${quoteIdent(move.to)}`);
    const finalName = (physical: string) => parked.find((move) => move.from === physical)?.to ?? physical;
    for (const { column, constraint } of this.checks) {
      await alter(`ALTER COLUMN ${quoteIdent(finalName(column))} SET NOT NULL`);
      await alter(`DROP CONSTRAINT ${quoteIdent(constraint)}`);
    }
    for (const { before, after, converted } of this.plan.kept) {
      if (before.required && !after.required && converted === null) await alter(`ALTER COLUMN ${quoteIdent(after.name)} DROP NOT NULL`);
      for (const index of await indexesOf(client, this.location, after.name)) {
        const keep = index.unique ? after.unique : after.indexed && !after.unique;
        if (!keep) await client.query(`DROP INDEX ${quoteIdent(projectSchemaName(this.location.projectId))}.${quoteIdent(index.name)}`);
      }
    }
    for (const column of this.plan.added) {
      try {
        await alter(`ADD COLUMN ${columnDefinition(column)}`);
      } catch (error) {
        if ((error as { code?: string }).code === '23502')
          throw new DataError('conversion_failed', `the table has rows, which have no value for the required column ${column.name}`, column.name);
        throw error;
      }
      if (column.unique || column.indexed) await client.query(indexStatement(this.location, column.name, column.unique, false));
    }
    // The conversion triggers go with their functions.
    for (const cleanup of this.cleanups) if (cleanup.startsWith('DROP FUNCTION')) await client.query(cleanup);
  }

  /**
   * After the commit: statistics for columns whose values were rewritten, so the planner picks
   * their index at once (an unanalysed column can make `WHERE c = $1 ORDER BY id LIMIT n` walk
   * the primary key instead). ANALYZE samples; it blocks nobody.
   */
  async finish(): Promise<void> {
    const rewritten = this.plan.kept.filter((kept) => kept.converted !== null).map((kept) => quoteIdent(kept.after.name));
    if (rewritten.length > 0) await this.pool.query(`ANALYZE ${this.table} (${rewritten.join(', ')})`);
  }

  /** Undoes `prepare` (the change was refused or abandoned). */
  async discard(): Promise<void> {
    for (const cleanup of [...this.cleanups].reverse()) await this.pool.query(cleanup).catch(() => undefined);
    this.cleanups.length = 0;
  }

  private async shortDdl(statement: string): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
      await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
