import type { Row, RowValues, TableColumn } from '../../api/types';

/** What each field of the row dialog holds: the text typed (booleans as "true"/"false", "" for none). */
export type RowForm = Record<string, string>;

export function rowFormOf(columns: readonly TableColumn[], row: Row | null): RowForm {
  return Object.fromEntries(columns.map((column) => [column.name, row ? textOf(column, row[column.name]) : '']));
}

function textOf(column: TableColumn, value: unknown): string {
  if (value === null || value === undefined) return '';
  // Small JSON on one line; larger JSON indented, to be read in the text area.
  if (column.type === 'json') return JSON.stringify(value).length <= 60 ? JSON.stringify(value) : JSON.stringify(value, null, 2);
  return String(value);
}

/**
 * The values to send, typed by column, and the problems found before sending (the server checks
 * again). An empty field is no value: left out of a new row, null in a changed one.
 */
export function rowValuesOf(columns: readonly TableColumn[], form: RowForm, isNew: boolean): { values: RowValues; problems: Map<string, string> } {
  const values: RowValues = {};
  const problems = new Map<string, string>();
  for (const column of columns) {
    const text = form[column.name] ?? '';
    // Spaces are a text value of their own; in any other column they are nothing.
    const empty = column.type === 'text' ? text === '' : text.trim() === '';
    if (empty) {
      if (column.required) problems.set(column.name, `${column.name} is required`);
      else if (!isNew) values[column.name] = null;
      continue;
    }
    const parsed = parse(column, text);
    if ('problem' in parsed) problems.set(column.name, parsed.problem);
    else values[column.name] = parsed.value;
  }
  return { values, problems };
}

function parse(column: TableColumn, text: string): { value: unknown } | { problem: string } {
  switch (column.type) {
    case 'number': {
      const value = Number(text);
      return Number.isFinite(value) ? { value } : { problem: `${column.name} must be a number` };
    }
    case 'boolean':
      return text === 'true' || text === 'false' ? { value: text === 'true' } : { problem: `${column.name} must be true or false` };
    case 'datetime':
      return Number.isNaN(Date.parse(text)) ? { problem: `${column.name} must be a date and time (ISO 8601, e.g. 2026-11-24T09:30:00Z)` } : { value: text.trim() };
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { problem: `${column.name} is not valid JSON` };
      }
    default:
      return { value: text };
  }
}

/** A cell as the rows table shows it (JSON compact, none as an empty string). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
