import { DATA_NAME_PATTERN, RESERVED_COLUMN_NAMES, SYSTEM_COLUMNS } from '@flowgate/contracts';
import type { ColumnType, TableColumn } from '../../api/types';

/** One column as the editor holds it: `original` is its name on the server (null: a new column), so a rename keeps the data. */
export interface ColumnDraft {
  key: string;
  name: string;
  type: ColumnType;
  required: boolean;
  unique: boolean;
  indexed: boolean;
  original: string | null;
}

let nextKey = 0;
const freshKey = () => `column-${++nextKey}`;

export const blankColumn = (): ColumnDraft => ({ key: freshKey(), name: '', type: 'text', required: false, unique: false, indexed: false, original: null });

export const draftsOf = (columns: readonly TableColumn[]): ColumnDraft[] =>
  columns.map((column) => ({ key: freshKey(), name: column.name, type: column.type, required: column.required, unique: column.unique, indexed: column.indexed, original: column.name }));

/** The column list the API takes: a renamed column says what it was called (`renamed_from`). */
export function columnsPayload(drafts: readonly ColumnDraft[]) {
  return drafts.map(({ name, type, required, unique, indexed, original }) => ({
    name: name.trim(),
    type,
    required,
    unique,
    indexed,
    ...(original !== null && original !== name.trim() ? { renamed_from: original } : {}),
  }));
}

/** Why a table or column name cannot be used, or null (the server checks the same rule). */
export function nameProblem(name: string, what: 'Table' | 'Column'): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return `${what} name is required`;
  if (!DATA_NAME_PATTERN.test(trimmed)) return 'Use lowercase letters, digits and _, starting with a letter (at most 63)';
  if (what === 'Column' && (SYSTEM_COLUMNS as readonly string[]).includes(trimmed)) return `Every row has ${trimmed} already`;
  if (what === 'Column' && RESERVED_COLUMN_NAMES.has(trimmed)) return `${trimmed} is a name PostgreSQL keeps for itself`;
  return null;
}

/** The problem of each column's name, by its key (duplicates included). */
export function columnProblems(drafts: readonly ColumnDraft[]): Map<string, string> {
  const problems = new Map<string, string>();
  const seen = new Set<string>();
  for (const draft of drafts) {
    const name = draft.name.trim();
    const problem = nameProblem(name, 'Column') ?? (seen.has(name) ? `Another column is named ${name}` : null);
    if (problem) problems.set(draft.key, problem);
    seen.add(name);
  }
  return problems;
}
