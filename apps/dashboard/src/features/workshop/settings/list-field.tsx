import type { JsonValue } from '@flowgate/flow-engine';
import { atField } from '../diagnostics/diagnostic-lookup';
import { FieldControl, type StructuredFieldProps } from './field-control';
import { focusAddedRow } from './focus-added-row';
import { FieldShell } from './field-shell';

type Row = Record<string, JsonValue>;

/** A list of small objects (Send External Request's headers): one row of fields per item. */
export function ListField({ field, nodeId, value, onChange, diagnostics, suggestions }: StructuredFieldProps) {
  const rows = (Array.isArray(value) ? value : []) as Row[];
  const full = field.maxItems !== null && rows.length >= field.maxItems;
  const update = (index: number, key: string, item: JsonValue | undefined) =>
    onChange(rows.map((row, at) => (at === index ? withField(row, key, item) : row)));
  // A new row holds what its fields show: their defaults (a filter's `eq`), else empty text.
  const blank = () => Object.fromEntries(field.itemFields.map((item) => [item.key, item.defaultValue ?? (item.kind === 'enum' ? item.options[0] : '')])) as Row;

  return (
    <fieldset className="ws-list" data-field-key={field.key}>
      <legend>{field.title}</legend>
      {rows.map((row, index) => (
        <div className="ws-list-row" key={index}>
          {field.itemFields.map((item) => (
            <FieldShell key={item.key} label={item.title} fieldKey={`${field.key}.${index}.${item.key}`} problems={atField(diagnostics, nodeId, `${field.key}.${index}.${item.key}`)}>
              {(control) => <FieldControl field={item} value={row[item.key]} onChange={(next) => update(index, item.key, next)} control={control} suggestions={suggestions} />}
            </FieldShell>
          ))}
          <button type="button" className="ws-button ws-quiet" onClick={() => onChange(rows.filter((_, at) => at !== index))}>
            {field.itemLabel ? `Remove ${field.itemLabel}` : 'Remove row'}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="ws-button"
        disabled={full}
        onClick={(event) => {
          onChange([...rows, blank()]);
          focusAddedRow(event, '.ws-list-row');
        }}
      >
        {field.itemLabel ? `Add ${field.itemLabel}` : `Add to ${field.title}`}
      </button>
      {full && <span className="ws-field-hint">At most {field.maxItems}.</span>}
    </fieldset>
  );
}

function withField(row: Row, key: string, value: JsonValue | undefined): Row {
  const next = { ...row };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}
