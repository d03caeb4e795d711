/**
 * The shape of a project's data tables (docs/data-tables.md): names, column types and the
 * filter operators, shared by the engine's table blocks, the control plane's REST API, the
 * storage library and the dashboard.
 */

/** Table and column names: lowercase, a letter first, at most 63 characters (PostgreSQL's limit). */
export const DATA_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
export const DATA_NAME_RULE = 'must start with a lowercase letter and hold only a-z, 0-9 and _ (at most 63 characters)';

/** Every row has these; a user column may not take their names. */
export const SYSTEM_COLUMNS = ['id', 'created_at', 'updated_at'] as const;
/**
 * Names PostgreSQL keeps for itself on every table (a column named so cannot be created): refused
 * like the system columns, so a user column is stored under its own name.
 */
export const RESERVED_COLUMN_NAMES: ReadonlySet<string> = new Set([...SYSTEM_COLUMNS, 'tableoid', 'xmin', 'xmax', 'cmin', 'cmax', 'ctid', 'oid']);

export const COLUMN_TYPES = ['text', 'number', 'boolean', 'datetime', 'json'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface DataColumn {
  name: string;
  type: ColumnType;
  required: boolean;
  unique: boolean;
  indexed: boolean;
}

/** What a flow needs to know of a table: its name and its columns' names and types. */
export interface DataTableShape {
  name: string;
  columns: ReadonlyArray<Pick<DataColumn, 'name' | 'type'>>;
}

export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'is_null', 'is_not_null'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
/** Operators that take no value. */
export const VALUELESS_OPERATORS: ReadonlySet<FilterOperator> = new Set(['is_null', 'is_not_null']);

export interface FilterCondition {
  column: string;
  operator: FilterOperator;
  value?: unknown;
}

export type SortDirection = 'asc' | 'desc';

/** The type of a column by name, the system columns included (`id` compares as text). */
export function columnTypeOf(columns: DataTableShape['columns'], name: string): ColumnType | null {
  if (name === 'id') return 'text';
  if (name === 'created_at' || name === 'updated_at') return 'datetime';
  return columns.find((column) => column.name === name)?.type ?? null;
}

const ORDERED: ReadonlySet<ColumnType> = new Set(['text', 'number', 'datetime']);

/** Whether an operator means something on a column of this type; null when it does, else why not. */
export function operatorProblem(operator: FilterOperator, type: ColumnType): string | null {
  switch (operator) {
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return ORDERED.has(type) ? null : `${operator} compares text, numbers and dates, not ${type}`;
    case 'contains':
      return type === 'text' || type === 'json' ? null : `contains applies to text and json columns, not ${type}`;
    default:
      return null;
  }
}

/** Rows one query may return (the blocks' `limit`, the REST `limit`). */
export const MAX_ROWS_PER_QUERY = 1000;
/** Conditions one filter may have (a table block's, the rows API's): each `contains` is a scan of its column. */
export const MAX_FILTER_CONDITIONS = 20;
