import type { ColumnType, DataColumn, FilterCondition, SortDirection } from '@flowgate/contracts';
import { columnTypeOf } from '@flowgate/contracts';
import { storedValues, toStoredValue } from './column-values';
import { DataError, dataErrorOf } from './data-error';
import type { Queryable } from './fair-data-pool';
import { Params, whereClause } from './row-filter';
import { qualifiedTable, quoteIdent, type TableLocation } from './storage-names';
import { isUuid, uuidV7 } from '@flowgate/platform';

export type { Queryable } from './fair-data-pool';

/** A stored row: its id and times, and one field per column. */
export interface DataRow {
  id: string;
  created_at: string;
  updated_at: string;
  [column: string]: unknown;
}

/** A table as the storage needs it: where it is and its columns (never its user-given name). */
export interface StoredTable extends TableLocation {
  columns: readonly DataColumn[];
}

export interface RowQuery {
  filter?: readonly FilterCondition[];
  sort?: { column: string; direction: SortDirection } | null;
  limit: number;
  /** From a previous page's `next_cursor`. */
  cursor?: string | null;
}

export interface RowPage {
  rows: DataRow[];
  next_cursor: string | null;
}

interface Cursor {
  /** The sort column's value of the last row (absent when sorting by id). */
  v?: unknown;
  id: string;
}

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

const forgedCursor = (): DataError => new DataError('invalid_value', 'cursor is not one this API gave out', 'cursor');

/**
 * A cursor as `encodeCursor` wrote it, its sort value converted for the sort column (`type`,
 * null when sorting by id). Anything else — text, a list, an object without a row id, a value
 * of another type or with NUL inside — is refused naming `cursor`, before any SQL is made.
 */
function decodeCursor(text: string, sortColumn: string | null, type: ColumnType | null): Cursor {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw forgedCursor();
  }
  if (cursor === null || typeof cursor !== 'object' || Array.isArray(cursor)) throw forgedCursor();
  const { id, v } = cursor as { id?: unknown; v?: unknown };
  if (typeof id !== 'string' || !isUuid(id)) throw forgedCursor();
  if (v === null || v === undefined || sortColumn === null || type === null) return { id };
  try {
    return { id, v: toStoredValue(sortColumn, type, v) };
  } catch {
    throw forgedCursor();
  }
}

/** The SQL of one table, built once per table shape: what to select, where it is. */
class TableSql {
  readonly from: string;
  readonly select: string;
  constructor(readonly table: StoredTable) {
    this.from = qualifiedTable(table);
    this.select = ['id', 'created_at', 'updated_at', ...table.columns.map((column) => column.name)].map(quoteIdent).join(', ');
  }
}

/**
 * Reads and writes the rows of one stored table. Every statement names the table by its storage
 * name and the columns the table declares (quoted); every value is bound. Each method is one
 * statement: no transaction spans two calls.
 */
export class RowStore {
  private readonly sql: TableSql;

  constructor(
    private readonly pool: Queryable,
    table: StoredTable | TableSql,
  ) {
    this.sql = table instanceof TableSql ? table : new TableSql(table);
  }

  /** The same table's statements run on `queryable` (one tenant's turn in a FairDataPool); its SQL is not built again. */
  on(queryable: Queryable): RowStore {
    return new RowStore(queryable, this.sql);
  }

  get columns(): readonly DataColumn[] {
    return this.sql.table.columns;
  }

  async get(id: string): Promise<DataRow | null> {
    if (!isUuid(id)) return null;
    const result = await this.run(`SELECT ${this.sql.select} FROM ${this.sql.from} WHERE "id" = $1`, [id]);
    return result.rows[0] ?? null;
  }

  /** Rows matching the filter, in `sort` order then by id; a page and the cursor of the next one. */
  async query({ filter = [], sort = null, limit, cursor = null }: RowQuery): Promise<RowPage> {
    const params = new Params();
    let where = whereClause(this.columns, filter, params);
    const direction = sort?.direction === 'desc' ? 'DESC' : 'ASC';
    const sortColumn = sort && sort.column !== 'id' ? sort.column : null;
    if (sortColumn !== null && columnTypeOf(this.columns, sortColumn) === null)
      throw new DataError('unknown_column', `the table has no column ${sortColumn}`, sortColumn);
    if (cursor !== null) {
      const after = decodeCursor(cursor, sortColumn, sortColumn === null ? null : columnTypeOf(this.columns, sortColumn));
      const condition = this.afterCursor(after, sortColumn, direction, params);
      where = where === '' ? ` WHERE ${condition}` : `${where} AND ${condition}`;
    }
    const order =
      sortColumn === null ? `"id" ${direction}` : `${quoteIdent(sortColumn)} ${direction} NULLS LAST, "id" ASC`;
    const { rows } = await this.run(`SELECT ${this.sql.select} FROM ${this.sql.from}${where} ORDER BY ${order} LIMIT ${params.add(limit + 1)}`, params.values);
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    const next = more && last ? encodeCursor(sortColumn === null ? { id: last.id } : { v: last[sortColumn] ?? null, id: last.id }) : null;
    return { rows, next_cursor: next };
  }

  /** Keyset condition: rows after the cursor's in the sort order (NULLs last; equal values in creation order). */
  private afterCursor(after: Cursor, sortColumn: string | null, direction: 'ASC' | 'DESC', params: Params): string {
    const beyond = direction === 'ASC' ? '>' : '<';
    const id = params.add(after.id);
    if (sortColumn === null) return `"id" ${beyond} ${id}::uuid`;
    const column = quoteIdent(sortColumn);
    if (after.v === null || after.v === undefined) return `(${column} IS NULL AND "id" > ${id}::uuid)`;
    const value = params.add(after.v);
    return `(${column} ${beyond} ${value} OR (${column} = ${value} AND "id" > ${id}::uuid) OR ${column} IS NULL)`;
  }

  async insert(values: Record<string, unknown>): Promise<DataRow> {
    const [row] = await this.insertMany([values]);
    return row!;
  }

  /** One statement for all the rows (a CSV batch); all or none are stored. */
  async insertMany(list: readonly Record<string, unknown>[]): Promise<DataRow[]> {
    const params = new Params();
    let names: string[] | null = null;
    const tuples = list.map((values) => {
      const stored = storedValues(this.columns, values, { partial: false });
      names ??= ['id', ...stored.map(({ column }) => column.name)];
      return `(${[params.add(uuidV7()), ...stored.map(({ value }) => params.add(value))].join(', ')})`;
    });
    if (names === null) return [];
    const columns = (names as string[]).map(quoteIdent).join(', ');
    const { rows } = await this.run(`INSERT INTO ${this.sql.from} (${columns}) VALUES ${tuples.join(', ')} RETURNING ${this.sql.select}`, params.values);
    return rows;
  }

  /** Sets `values` on every row matching the filter; the rows as they are now. */
  async update(filter: readonly FilterCondition[], values: Record<string, unknown>): Promise<DataRow[]> {
    const params = new Params();
    const stored = storedValues(this.columns, values, { partial: true });
    const sets = [...stored.map(({ column, value }) => `${quoteIdent(column.name)} = ${params.add(value)}`), '"updated_at" = now()'];
    const where = whereClause(this.columns, filter, params);
    const { rows } = await this.run(`UPDATE ${this.sql.from} SET ${sets.join(', ')}${where} RETURNING ${this.sql.select}`, params.values);
    return rows;
  }

  async delete(filter: readonly FilterCondition[]): Promise<number> {
    const params = new Params();
    const where = whereClause(this.columns, filter, params);
    const result = await this.run(`DELETE FROM ${this.sql.from}${where}`, params.values);
    return result.rowCount ?? 0;
  }

  private async run(text: string, values: unknown[]): Promise<{ rows: DataRow[]; rowCount: number | null }> {
    try {
      return await this.pool.query<DataRow>(text, values);
    } catch (error) {
      throw dataErrorOf(error);
    }
  }
}
