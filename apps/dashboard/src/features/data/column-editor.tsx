import { useEffect, useRef } from 'react';
import { Field } from '../../ui/field';
import { COLUMN_TYPES } from '@flowgate/contracts';
import { blankColumn, type ColumnDraft } from './column-drafts';

const FLAGS = [
  ['required', 'Required', 'Every row must have a value'],
  ['unique', 'Unique', 'No two rows may have the same value'],
  ['indexed', 'Indexed', 'Filters and sorts on this column stay fast on large tables'],
] as const;

/**
 * The column list of `New table` and `Edit columns`: per column a name, a type, Required, Unique,
 * Indexed and `Remove column`; `Add column` adds one. `problems` are by column key.
 */
export function ColumnEditor({ columns, onChange, problems }: { columns: ColumnDraft[]; onChange: (next: ColumnDraft[]) => void; problems: ReadonlyMap<string, string> }) {
  const update = (key: string, change: Partial<ColumnDraft>) => onChange(columns.map((column) => (column.key === key ? { ...column, ...change } : column)));
  const list = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const added = useRef(false);
  // `Add column` puts the cursor in the new column's name, so a keyboard user types on.
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    const names = list.current?.querySelectorAll<HTMLInputElement>('.column-row input[type="text"], .column-row input:not([type])');
    names?.[names.length - 1]?.focus();
  }, [columns.length]);
  const add = () => {
    added.current = true;
    onChange([...columns, blankColumn()]);
  };
  return (
    <div className="column-editor" ref={list}>
      <p className="column-editor-title">
        <strong>Columns</strong> <span className="muted">Every row also has id, created_at and updated_at.</span>
      </p>
      {columns.map((column, index) => (
        <fieldset key={column.key} className="column-row">
          <legend className="visually-hidden">Column {index + 1}</legend>
          <Field
            label="Column name"
            value={column.name}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => update(column.key, { name: event.target.value })}
            error={problems.get(column.key)}
            hint={column.original !== null && column.original !== column.name.trim() ? `Renamed from ${column.original}` : undefined}
          />
          <div className="field">
            <label htmlFor={`${column.key}-type`}>Type</label>
            <select id={`${column.key}-type`} value={column.type} onChange={(event) => update(column.key, { type: event.target.value as ColumnDraft['type'] })}>
              {COLUMN_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div className="column-flags">
            {FLAGS.map(([flag, label, title]) => (
              <label key={flag} className="check" title={title}>
                <input type="checkbox" checked={column[flag]} onChange={(event) => update(column.key, { [flag]: event.target.checked })} />
                {label}
              </label>
            ))}
          </div>
          <button
            type="button"
            className="button ghost"
            onClick={() => {
              onChange(columns.filter((other) => other.key !== column.key));
              // The pressed button goes with its column: focus stays in the dialog, on Add column.
              addButton.current?.focus();
            }}
          >
            Remove column
          </button>
        </fieldset>
      ))}
      <div>
        <button ref={addButton} type="button" className="button secondary" onClick={add}>
          Add column
        </button>
      </div>
    </div>
  );
}
