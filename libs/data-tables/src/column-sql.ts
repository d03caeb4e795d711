import type { ColumnType } from '@flowgate/contracts';
import { quoteIdent } from './storage-names';

/** The PostgreSQL type that stores each column type. */
export const STORAGE_TYPE: Record<ColumnType, string> = {
  text: 'text',
  number: 'double precision',
  boolean: 'boolean',
  datetime: 'timestamptz',
  json: 'jsonb',
};

/** A column's value as text (what a type change converts from). */
function textOf(column: string, from: ColumnType): string {
  const name = quoteIdent(column);
  switch (from) {
    case 'json':
      return `(${name} #>> '{}')`;
    case 'datetime':
      return `to_char(${name} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    default:
      return `${name}::text`;
  }
}

/**
 * SQL converting `column` from one type to another: NULL where a value does not convert (the
 * type change names the first such row and stops).
 */
export function conversionSql(column: string, from: ColumnType, to: ColumnType): string {
  const name = quoteIdent(column);
  switch (to) {
    case 'text':
      return textOf(column, from);
    case 'json':
      return from === 'datetime' ? `to_jsonb(${textOf(column, from)})` : from === 'json' ? name : `to_jsonb(${name})`;
    case 'number':
      return from === 'boolean' ? `(CASE WHEN ${name} THEN 1 WHEN NOT ${name} THEN 0 END)::double precision` : `flowgate.to_number(${textOf(column, from)})`;
    case 'boolean':
      return `flowgate.to_boolean(${textOf(column, from)})`;
    case 'datetime':
      return `flowgate.to_datetime(${textOf(column, from)})`;
  }
}
