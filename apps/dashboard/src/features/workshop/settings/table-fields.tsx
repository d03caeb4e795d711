import type { JsonValue } from '@flowgate/flow-engine';
import { EntriesEditor } from './entries-editor';
import type { ControlProps } from './field-shell';
import type { StructuredFieldProps } from './field-control';
import { columnNames, useTableScope } from './table-scope';
import { NamedValuesEditor } from './named-values-editor';

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

/**
 * Values by column (Insert Row, Update Rows): one template field per column of the chosen table,
 * labelled by its name; an empty field is left out. Without a known table: key/value entries.
 */
export function ColumnValuesEditor(props: StructuredFieldProps) {
  const table = useTableScope()?.table;
  if (!table) return <EntriesEditor {...props} />;
  const slots = table.columns.map((column) => ({ name: column.name, textual: column.type === 'text', hint: `${column.type}${column.required ? ', required' : ''}` }));
  return <NamedValuesEditor {...props} legend={props.field.title} owner={`columns of ${table.name}`} slots={slots} placeholder="Empty: left out" />;
}
