import type { JsonValue } from '@flowgate/flow-engine';
import { atField } from '../diagnostics/diagnostic-lookup';
import { FieldControl, type StructuredFieldProps } from './field-control';
import { FieldShell } from './field-shell';

type Group = Record<string, JsonValue>;

/** One small object (Query Rows' sort): its fields side by side; emptied entirely, an optional group is removed. */
export function GroupField({ field, nodeId, value, onChange, diagnostics, suggestions }: StructuredFieldProps) {
  const group = (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Group;
  const update = (key: string, item: JsonValue | undefined) => {
    const next = { ...group };
    if (item === undefined || item === '') delete next[key];
    else next[key] = item;
    const filled = field.itemFields.some((other) => other.kind !== 'enum' && next[other.key] !== undefined);
    // An enum alone (a direction with no column) means nothing: the group goes when its other fields are empty.
    onChange((filled || field.required ? withEnumDefaults(next) : field.nullable ? null : undefined) as JsonValue);
  };
  const withEnumDefaults = (next: Group): Group => {
    const filled = { ...next };
    for (const item of field.itemFields) if (item.kind === 'enum' && filled[item.key] === undefined) filled[item.key] = (item.defaultValue ?? item.options[0]) as JsonValue;
    return filled;
  };
  return (
    <fieldset className="ws-list ws-group" data-field-key={field.key}>
      <legend>{field.title}</legend>
      <div className="ws-list-row">
        {field.itemFields.map((item) => (
          <FieldShell key={item.key} label={item.title} fieldKey={`${field.key}.${item.key}`} problems={atField(diagnostics, nodeId, `${field.key}.${item.key}`)}>
            {(control) => <FieldControl field={item} value={group[item.key]} onChange={(next) => update(item.key, next)} control={control} suggestions={suggestions} />}
          </FieldShell>
        ))}
      </div>
    </fieldset>
  );
}
