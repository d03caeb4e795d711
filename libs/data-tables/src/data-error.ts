/**
 * What the storage refuses, in the words of the contract (docs/data-tables.md). The control
 * plane maps it to its error body, the table blocks' port to the flow's answer.
 */
export type DataErrorCode =
  | 'invalid_value'
  | 'unique_violation'
  | 'data_limit_reached'
  | 'unknown_table'
  | 'unknown_column'
  | 'conversion_failed'
  /** The tenant's share of the pool is taken and its line full (fair-data-pool.ts). */
  | 'busy'
  /** Stopped by the statement timeout (or cancelled). */
  | 'query_timeout';

export class DataError extends Error {
  constructor(
    readonly code: DataErrorCode,
    message: string,
    /** The column concerned, when there is one. */
    readonly column: string | null = null,
    /** The row concerned (a conversion that failed), when there is one. */
    readonly rowId: string | null = null,
    /** The value concerned, as PostgreSQL printed it (a unique violation). */
    readonly value: string | null = null,
  ) {
    super(message);
    this.name = 'DataError';
  }
}

/** SQLSTATEs raised by the usage trigger (data-database.ts). */
const LIMIT_STATES = new Set(['FGR01', 'FGR02', 'FGR03']);

interface PgError {
  code?: string;
  detail?: string;
  column?: string;
  message: string;
}

/** Turns what PostgreSQL refused into a DataError; anything else is thrown as it was. */
export function dataErrorOf(error: unknown): unknown {
  const pg = error as PgError;
  if (typeof pg?.code !== 'string') return error;
  if (LIMIT_STATES.has(pg.code)) return new DataError('data_limit_reached', pg.message);
  if (pg.code === '23505') {
    const key = /^Key \(([a-z][a-z0-9_]*)\)=\((.*)\) already exists/s.exec(pg.detail ?? '');
    const column = key?.[1] ?? null;
    return new DataError('unique_violation', column ? `another row already has this ${column}` : 'another row already has this value', column, null, key?.[2] ?? null);
  }
  // query_canceled: the statement timeout, or a cancel request when its run ended (fair-data-pool.ts).
  if (pg.code === '57014') return new DataError('query_timeout', 'the query ran longer than it may and was stopped');
  if (pg.code === '23502') return new DataError('invalid_value', `${pg.column ?? 'a column'} is required`, pg.column ?? null);
  return error;
}
