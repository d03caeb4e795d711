import { isApiError } from '../../api/api-error';
import type { ColumnDraft } from './column-drafts';

/**
 * The column problems the server named (`details` paths `columns.N…`, or a message naming the
 * column), by column key, so they show beside the right field.
 */
export function serverColumnProblems(error: unknown, columns: readonly ColumnDraft[]): Map<string, string> {
  const problems = new Map<string, string>();
  if (!isApiError(error)) return problems;
  for (const detail of error.details) {
    const index = /^columns\.(\d+)/.exec(detail.path)?.[1];
    const column = index === undefined ? undefined : columns[Number(index)];
    if (column) problems.set(column.key, detail.message);
  }
  return problems;
}

/** The values' problems the server named (`details` paths `values.COLUMN` or `COLUMN`), by column name. */
export function serverValueProblems(error: unknown): Map<string, string> {
  const problems = new Map<string, string>();
  if (!isApiError(error)) return problems;
  for (const detail of error.details) problems.set(detail.path.replace(/^values\./, ''), detail.message);
  return problems;
}
