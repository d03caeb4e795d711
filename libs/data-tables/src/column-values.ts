import type { ColumnType, DataColumn } from '@flowgate/contracts';
import { DataError } from './data-error';
import { unstorableJson, unstorableText } from './storable-text';

/**
 * A value as PostgreSQL receives it for a column of each type, or a DataError naming the
 * column. Lenient where a person would be: "42" fits a number column, "true" a boolean, 7 a
 * text column — templates give text.
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** The value quoted in full: whoever shows the message masks secrets in it, then cuts it (`safeMessage`). */
const describe = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : Array.isArray(value) ? 'a list' : value !== null && typeof value === 'object' ? 'an object' : String(value);

const refuse = (column: string, expected: string, value: unknown): DataError =>
  new DataError('invalid_value', `${column} expects ${expected}, got ${describe(value)}`, column);

const unstorable = (column: string, problem: string): DataError => new DataError('invalid_value', `${column} ${problem}`, column);

/** Converts a non-null value for a column of `type`; throws DataError('invalid_value'). */
export function toStoredValue(column: string, type: ColumnType, value: unknown): unknown {
  switch (type) {
    case 'text': {
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (typeof value !== 'string') throw refuse(column, 'text', value);
      const problem = unstorableText(value);
      if (problem !== null) throw unstorable(column, problem);
      return value;
    }
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(number)) throw refuse(column, 'a number', value);
      return number;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw refuse(column, 'true or false', value);
    case 'datetime': {
      if (typeof value !== 'string') throw refuse(column, 'a date and time (ISO 8601)', value);
      const match = ISO_DATE.exec(value.trim());
      // No zone given: UTC, whatever the server's time zone.
      const text = match && match[1] === undefined && value.length > 10 ? `${value.trim()}Z` : value.trim();
      const time = match ? Date.parse(text) : NaN;
      if (Number.isNaN(time)) throw refuse(column, 'a date and time (ISO 8601)', value);
      return new Date(time).toISOString();
    }
    case 'json': {
      const problem = unstorableJson(value);
      if (problem !== null) throw unstorable(column, problem);
      return JSON.stringify(value);
    }
  }
}

/** Checks and converts a set of column values; `partial` (an update) leaves absent columns alone. */
export function storedValues(
  columns: readonly DataColumn[],
  values: Record<string, unknown>,
  options: { partial: boolean },
): Array<{ column: DataColumn; value: unknown }> {
  const known = new Map(columns.map((column) => [column.name, column]));
  for (const name of Object.keys(values))
    if (!known.has(name)) throw new DataError('unknown_column', `the table has no column ${name}`, name);
  const out: Array<{ column: DataColumn; value: unknown }> = [];
  for (const column of columns) {
    const given = values[column.name];
    if (given === undefined && options.partial) continue;
    if (given === undefined || given === null) {
      if (column.required) throw new DataError('invalid_value', `${column.name} is required`, column.name);
      out.push({ column, value: null });
      continue;
    }
    out.push({ column, value: toStoredValue(column.name, column.type, given) });
  }
  return out;
}
