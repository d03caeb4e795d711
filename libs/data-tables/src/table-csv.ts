import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { jsonTooDeep, MAX_JSON_DEPTH, SYSTEM_COLUMNS, type DataColumn } from '@flowgate/contracts';
import type { Pool } from 'pg';
import { inTransaction } from './data-database';
import { storedValues } from './column-values';
import { neutraliseFormula, restoreFormula } from './csv-formula';
import { DataError } from './data-error';
import { RowStore, type DataRow, type Queryable, type StoredTable } from './row-store';

/** Rows per INSERT statement during an import: memory stays bounded by one batch. */
const IMPORT_BATCH = 1000;
const EXPORT_PAGE = 1000;

/** A CSV line that cannot be stored; `line` counts from 1, the header being line 1. */
export class CsvRowError extends Error {
  constructor(
    readonly line: number,
    override readonly cause: DataError,
  ) {
    super(`line ${line}: ${cause.message}`);
    this.name = 'CsvRowError';
  }
}

/** A cell as a column value: empty is null; json cells hold JSON text. */
function cellValue(column: DataColumn, cell: string): unknown {
  if (cell === '') return null;
  if (column.type === 'text') return restoreFormula(cell);
  if (column.type !== 'json') return cell;
  // Parsed only within the depth every later step handles (JSON.parse itself copes with any).
  if (jsonTooDeep(cell)) throw new DataError('invalid_value', `${column.name} nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, column.name);
  try {
    return JSON.parse(cell) as unknown;
  } catch {
    throw new DataError('invalid_value', `${column.name} expects JSON, got ${JSON.stringify(cell)}`, column.name);
  }
}

function headerColumns(header: string[], columns: readonly DataColumn[]): Array<DataColumn | null> {
  const byName = new Map(columns.map((column) => [column.name, column]));
  return header.map((name, index) => {
    const trimmed = name.trim();
    if ((SYSTEM_COLUMNS as readonly string[]).includes(trimmed)) return null; // new rows get their own id and times
    const column = byName.get(trimmed);
    if (!column) throw new CsvRowError(1, new DataError('unknown_column', `column ${index + 1} of the header, ${JSON.stringify(trimmed)}, is not a column of the table`, trimmed));
    return column;
  });
}

/**
 * Reads CSV (a header row of column names, then one row per line) from `input` and inserts the
 * rows in batches inside one transaction: all rows or none. The first line that cannot be
 * stored stops the import with its line number.
 */
export async function importCsv(pool: Pool, table: StoredTable, input: Readable): Promise<{ inserted: number }> {
  return inTransaction(pool, async (client) => {
    const store = new RowStore(client, table);
    // The CSV modules load with the first import or export (the gateway never needs them).
    const { parse } = require('csv-parse') as typeof import('csv-parse');
    const parser = input.pipe(parse({ bom: true, relax_column_count: false, skip_empty_lines: true, info: true }));
    let header: Array<DataColumn | null> | null = null;
    let batch: Array<{ line: number; values: Record<string, unknown> }> = [];
    let inserted = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      try {
        inserted += (await store.insertMany(batch.map((row) => row.values))).length;
      } catch (error) {
        throw lineOf(error, batch);
      }
      batch = [];
    };
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (header === null) {
          header = headerColumns(record, table.columns);
          continue;
        }
        const values: Record<string, unknown> = {};
        try {
          record.forEach((cell, index) => {
            const column = header![index];
            if (column) values[column.name] = cellValue(column, cell);
          });
          storedValues(table.columns, values, { partial: false });
        } catch (error) {
          throw new CsvRowError(info.lines, error as DataError);
        }
        batch.push({ line: info.lines, values });
        if (batch.length >= IMPORT_BATCH) await flush();
      }
    } catch (error) {
      if (error instanceof CsvRowError) throw error;
      const code = (error as { code?: string }).code;
      if (typeof code === 'string' && code.startsWith('CSV_')) {
        const line = (error as { lines?: number }).lines ?? 0;
        throw new CsvRowError(line, new DataError('invalid_value', (error as Error).message));
      }
      throw error;
    }
    await flush();
    return { inserted };
  });
}

/**
 * Which line of a batch a failed insert was about. Values were checked line by line before;
 * what is left is a unique violation (the line holding the value PostgreSQL names) or a limit
 * (the batch's first line).
 */
function lineOf(error: unknown, batch: Array<{ line: number; values: Record<string, unknown> }>): unknown {
  if (!(error instanceof DataError)) return error;
  const { column, value } = error;
  const match = column !== null && value !== null ? batch.find((row) => csvCell(row.values[column]) === value) : undefined;
  return new CsvRowError((match ?? batch[0]!).line, error);
}

const csvCell = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Writes the table as CSV (header: id, created_at, updated_at, the columns), reading it a page at a time. */
export async function exportCsv(pool: Queryable, table: StoredTable, output: Writable): Promise<void> {
  const store = new RowStore(pool, table);
  const names = [...SYSTEM_COLUMNS, ...table.columns.map((column) => column.name)];
  // Only text can start like a formula: numbers, booleans, dates and ids cannot, nor JSON text but a number.
  const text = new Set(table.columns.filter((column) => column.type === 'text').map((column) => column.name));
  const cellOf = (row: DataRow, name: string): string => (text.has(name) ? neutraliseFormula(csvCell(row[name])) : csvCell(row[name]));
  const { stringify } = require('csv-stringify') as typeof import('csv-stringify');
  const csv = stringify({ header: true, columns: names, cast: { boolean: (value) => String(value), object: (value) => JSON.stringify(value) } });
  async function* pages(): AsyncGenerator<string[]> {
    let cursor: string | null = null;
    do {
      const page = await store.query({ limit: EXPORT_PAGE, cursor });
      for (const row of page.rows as DataRow[]) yield names.map((name) => cellOf(row, name));
      cursor = page.next_cursor;
    } while (cursor !== null);
  }
  await pipeline(pages(), csv, output);
}
