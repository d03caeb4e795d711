import type { JsonValue } from '@flowgate/flow-engine';
import { atField } from '../diagnostics/diagnostic-lookup';
import { formatValue, parseValueText } from '../model/template-value';
import { FieldShell } from './field-shell';
import type { StructuredFieldProps } from './field-control';
import { TemplateInput } from './template-input';

/** One named value of the object: a table's column, a function's input. */
export interface NamedSlot {
  name: string;
  /** Text keeps `42` as text; otherwise 42, true and JSON keep their type. */
  textual: boolean;
  hint: string;
}

type Values = Record<string, JsonValue>;

/**
 * An object edited as one template field per known name (Insert Row's values by column, Call
 * Function's arguments by input), labelled by the name; an empty field is left out. Keys that are
 * not among the names are listed with a button to remove them.
 */
export function NamedValuesEditor({ field, nodeId, value, onChange, diagnostics, suggestions, legend, owner, slots, placeholder }: StructuredFieldProps & { legend: string; owner: string; slots: readonly NamedSlot[]; placeholder: string }) {
  const values = (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Values;
  const known = new Set(slots.map((slot) => slot.name));
  const others = Object.keys(values).filter((key) => !known.has(key));
  const set = (slot: NamedSlot, text: string) => {
    const next = { ...values };
    if (text === '') delete next[slot.name];
    else next[slot.name] = slot.textual ? text : parseValueText(text);
    onChange(next);
  };
  return (
    <fieldset className="ws-list" data-field-key={field.key}>
      <legend>{legend}</legend>
      {slots.map((slot) => (
        <FieldShell key={slot.name} label={slot.name} fieldKey={`${field.key}.${slot.name}`} problems={atField(diagnostics, nodeId, `${field.key}.${slot.name}`)} hint={slot.hint}>
          {(control) => <TemplateInput control={control} value={formatValue(values[slot.name])} onChange={(text) => set(slot, text)} suggestions={suggestions} placeholder={placeholder} />}
        </FieldShell>
      ))}
      {others.length > 0 && (
        <p className="ws-field-error">
          Not {owner}: {others.join(', ')}.{' '}
          <button type="button" className="ws-button ws-quiet" onClick={() => onChange(Object.fromEntries(Object.entries(values).filter(([key]) => known.has(key))))}>
            Remove them
          </button>
        </p>
      )}
    </fieldset>
  );
}
