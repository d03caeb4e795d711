import type { JsonValue } from '@flowgate/flow-engine';
import { atField } from '../diagnostics/diagnostic-lookup';
import { formatValue, parseValueText } from '../model/template-value';
import { EntriesEditor } from './entries-editor';
import type { ControlProps } from './field-shell';
import { FieldShell } from './field-shell';
import type { StructuredFieldProps } from './field-control';
import { columnNames, useTableScope } from './table-scope';
import { TemplateInput } from './template-input';

interface ChoiceProps {
  value: JsonValue | undefined;
  onChange(value: JsonValue | undefined): void;
  control: ControlProps;
}

/** `Table`: a combobox of the project's tables (a name the project lacks stays, marked). */
export function TableSelect({ value, onChange, control }: ChoiceProps) {
  const scope = useTableScope();
  const names = scope?.tables?.map((table) => table.name) ?? [];
  return <NameSelect names={names} value={value} onChange={onChange} control={control} empty={scope?.tables ? (names.length ? 'Choose a table' : 'No tables yet (add one on the Data page)') : 'Loading tables…'} />;
}

/** A column of the block's table: a combobox of its columns, or a textbox until a table is chosen. */
export function ColumnSelect({ value, onChange, control }: ChoiceProps) {
  const scope = useTableScope();
  if (!scope?.table) {
    return (
      <input
        id={control.id}
        aria-invalid={control.invalid || undefined}
        aria-describedby={control.describedBy}
        type="text"
        spellCheck={false}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return <NameSelect names={columnNames(scope.table)} value={value} onChange={onChange} control={control} empty="Choose a column" />;
}

function NameSelect({ names, value, onChange, control, empty }: ChoiceProps & { names: readonly string[]; empty: string }) {
  const current = typeof value === 'string' ? value : '';
  const missing = current !== '' && !names.includes(current);
  return (
    <select
      id={control.id}
      aria-invalid={control.invalid || missing || undefined}
      aria-describedby={control.describedBy}
      value={current}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
    >
      <option value="">{empty}</option>
      {missing && <option value={current}>{current} (not found)</option>}
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </select>
  );
}

type Values = Record<string, JsonValue>;

/**
 * Values by column (Insert Row, Update Rows): one template field per column of the chosen table,
 * labelled by its name; an empty field is left out. Without a known table: key/value entries.
 */
export function ColumnValuesEditor(props: StructuredFieldProps) {
  const { field, nodeId, value, onChange, diagnostics, suggestions } = props;
  const table = useTableScope()?.table;
  if (!table) return <EntriesEditor {...props} />;
  const values = (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Values;
  const known = new Set(table.columns.map((column) => column.name));
  const others = Object.keys(values).filter((key) => !known.has(key));
  const set = (column: (typeof table.columns)[number], text: string) => {
    const next = { ...values };
    if (text === '') delete next[column.name];
    // A text column keeps "42" as text; elsewhere 42, true and JSON keep their type.
    else next[column.name] = column.type === 'text' ? text : parseValueText(text);
    onChange(next);
  };
  return (
    <fieldset className="ws-list" data-field-key={field.key}>
      <legend>{field.title}</legend>
      {table.columns.map((column) => (
        <FieldShell
          key={column.name}
          label={column.name}
          fieldKey={`${field.key}.${column.name}`}
          problems={atField(diagnostics, nodeId, `${field.key}.${column.name}`)}
          hint={`${column.type}${column.required ? ', required' : ''}`}
        >
          {(control) => <TemplateInput control={control} value={formatValue(values[column.name])} onChange={(text) => set(column, text)} suggestions={suggestions} placeholder="Empty: left out" />}
        </FieldShell>
      ))}
      {others.length > 0 && (
        <p className="ws-field-error">
          Not columns of {table.name}: {others.join(', ')}.{' '}
          <button type="button" className="ws-button ws-quiet" onClick={() => onChange(Object.fromEntries(Object.entries(values).filter(([key]) => known.has(key))))}>
            Remove them
          </button>
        </p>
      )}
    </fieldset>
  );
}
