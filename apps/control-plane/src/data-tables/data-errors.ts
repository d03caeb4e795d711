import { CsvRowError, DataError } from '@flowgate/data-tables';
import { AppError } from '../common/app-error';

/**
 * A storage refusal as the REST API answers it: a value that does not fit (or an unknown
 * column) is 400 with `details` naming the column; the rest keep their code.
 */
export function restError(error: unknown, path: (column: string | null) => string = (column) => column ?? 'values'): unknown {
  if (error instanceof CsvRowError) {
    const inner = restError(error.cause) as AppError;
    return new AppError(inner.code, `Line ${error.line}: ${error.cause.message}`, [{ path: `line ${error.line}`, message: error.cause.message }]);
  }
  if (!(error instanceof DataError)) return error;
  switch (error.code) {
    case 'invalid_value':
    case 'unknown_column':
      return new AppError('invalid_request', `${error.message}`, [{ path: path(error.column), message: error.message }]);
    case 'unknown_table':
      return new AppError('table_not_found', error.message);
    default:
      return new AppError(error.code, error.message, error.column ? [{ path: path(error.column), message: error.message }] : undefined);
  }
}
