import { safeMessage } from '@flowgate/contracts';
import { CsvRowError, DataError } from '@flowgate/data-tables';
import { AppError } from '../common/app-error';

/**
 * A storage refusal as the REST API answers it: a value that does not fit (or an unknown
 * column) is 400 with `details` naming the column; the rest keep their code. Messages quote the
 * value in full (so that masking can see it whole): they are cut here, as everywhere they leave.
 */
export function restError(error: unknown, path: (column: string | null) => string = (column) => column ?? 'values'): unknown {
  if (error instanceof CsvRowError) {
    const inner = restError(error.cause) as AppError;
    const message = safeMessage(null, error.cause.message);
    return new AppError(inner.code, `Line ${error.line}: ${message}`, [{ path: `line ${error.line}`, message }]);
  }
  if (!(error instanceof DataError)) return error;
  const message = safeMessage(null, error.message);
  switch (error.code) {
    case 'invalid_value':
    case 'unknown_column':
      return new AppError('invalid_request', message, [{ path: path(error.column), message }]);
    case 'unknown_table':
      return new AppError('table_not_found', message);
    case 'busy':
      return new AppError('unavailable', error.message, undefined, { 'Retry-After': '1' });
    case 'query_timeout':
      return new AppError('query_timeout', 'The query ran longer than DATA_STATEMENT_TIMEOUT_MS allows and was stopped; narrow the filter or add a sort on an indexed column');
    default:
      return new AppError(error.code, message, error.column ? [{ path: path(error.column), message }] : undefined);
  }
}
