import { type FormEvent, useId, useState } from 'react';
import { useSaveRow } from '../../api/tables';
import type { DataTable, Row, TableColumn } from '../../api/types';
import { useAnnounce } from '../../ui/announcer';
import { Dialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { type RowForm, rowFormOf, rowValuesOf } from './row-values';
import { serverValueProblems } from './server-problems';
import { FormError } from '../../ui/form-error';

/** `Add row` (no `row`) and `Edit row`: one field per column, labelled by its name, and `Save row`. */
export function RowDialog({ projectId, table, row, onClose }: { projectId: string; table: DataTable; row: Row | null; onClose: () => void }) {
  const formId = useId();
  const [form, setForm] = useState<RowForm>(() => rowFormOf(table.columns, row));
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const save = useSaveRow(projectId, table.id);
  const announce = useAnnounce();
  const server = serverValueProblems(save.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { values, problems: found } = rowValuesOf(table.columns, form, row === null);
    setProblems(found);
    if (found.size > 0) return;
    save.mutate(
      { rowId: row?.id, values },
      {
        onSuccess: () => {
          announce(row ? 'Row saved' : 'Row added');
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      title={row ? 'Edit row' : 'Add row'}
      onClose={onClose}
      footer={
        <button type="submit" form={formId} className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save row'}
        </button>
      }
    >
      <form id={formId} className="stack" onSubmit={submit} noValidate>
        {row && (
          <p className="muted">
            id <code>{row.id}</code>
          </p>
        )}
        {table.columns.length === 0 && <p className="muted">This table has no columns yet: the row gets an id and its times.</p>}
        {table.columns.map((column) => (
          <ValueField
            key={column.name}
            column={column}
            value={form[column.name] ?? ''}
            onChange={(value) => setForm((current) => ({ ...current, [column.name]: value }))}
            error={problems.get(column.name) ?? server.get(column.name)}
          />
        ))}
        <FormError error={save.error} />
      </form>
    </Dialog>
  );
}

const HINTS: Record<TableColumn['type'], string> = {
  text: 'Text',
  number: 'A number',
  boolean: 'true or false',
  datetime: 'ISO 8601, e.g. 2026-11-24T09:30:00Z',
  json: 'Any JSON: an object, an array, a string in quotes…',
};

/** One column's field: a textbox, a number, true/false, or JSON in a text area. */
function ValueField({ column, value, onChange, error }: { column: TableColumn; value: string; onChange: (value: string) => void; error: string | undefined }) {
  const id = useId();
  const hint = `${HINTS[column.type]}${column.required ? ' · required' : ''}${column.unique ? ' · unique' : ''}`;
  if (column.type === 'number' || column.type === 'text' || column.type === 'datetime') {
    return (
      <Field
        label={column.name}
        type={column.type === 'number' ? 'number' : 'text'}
        step="any"
        value={value}
        spellCheck={column.type === 'text'}
        onChange={(event) => onChange(event.target.value)}
        error={error}
        hint={hint}
      />
    );
  }
  const describedBy = [error ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ');
  const aria = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy };
  return (
    <div className="field">
      <label htmlFor={id}>{column.name}</label>
      {column.type === 'boolean' ? (
        <select {...aria} value={value} onChange={(event) => onChange(event.target.value)}>
          {!column.required || value === '' ? <option value="">(none)</option> : null}
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : (
        <textarea {...aria} rows={4} spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
      <span id={`${id}-hint`} className="field-hint">
        {hint}
      </span>
    </div>
  );
}
