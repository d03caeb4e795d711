import { isApiError } from '../../api/api-error';
import type { ColumnDraft } from './column-drafts';

/**
 * The column problems the server named, by column key, so they show beside the right field:
 * `details` paths `columns.N…` (the Nth column sent) or `columns.NAME` (a column by name).
 */
export function serverColumnProblems(error: unknown, columns: readonly ColumnDraft[]): Map<string, string> {
  const problems = new Map<string, string>();
  if (!isApiError(error)) return problems;
  for (const detail of error.details) {
    const at = /^columns\.([^.]+)/.exec(detail.path)?.[1];
    const column = at === undefined ? undefined : /^\d+$/.test(at) ? columns[Number(at)] : columns.find((draft) => draft.name.trim() === at || draft.original === at);
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
