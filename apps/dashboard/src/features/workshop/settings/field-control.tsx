import type { Diagnostic, JsonValue, ReferenceSuggestion } from '@flowgate/flow-engine';
import type { BlockField } from '../model/block-fields';
import { formatValue, parseValueText } from '../model/template-value';
import type { ControlProps } from './field-shell';
import { FunctionSelect } from './function-fields';
import { ColumnSelect, TableSelect } from './table-fields';
import { TemplateInput } from './template-input';
import { optionLabel } from './option-label';

export interface FieldControlProps {
  field: BlockField;
  value: JsonValue | undefined;
  onChange(value: JsonValue | undefined): void;
  control: ControlProps;
  suggestions(): readonly ReferenceSuggestion[];
}

/** A field edited as a whole structure (a list of rows, Respond's entries), with the block's problems. */
export interface StructuredFieldProps {
  field: BlockField;
  nodeId: string;
  value: JsonValue | undefined;
  onChange(value: JsonValue): void;
  diagnostics: readonly Diagnostic[];
  suggestions(): readonly ReferenceSuggestion[];
}

/** The input for one scalar config field, chosen by its kind (lists and Respond's entries have their own). */
export function FieldControl({ field, value, onChange, control, suggestions }: FieldControlProps) {
  const aria = { id: control.id, 'aria-invalid': control.invalid || undefined, 'aria-describedby': control.describedBy };
  /** An emptied optional field is removed rather than kept as "". */
  const emptied = field.nullable ? null : field.required ? '' : undefined;
  if (field.dataTable === 'table') return <TableSelect value={value} onChange={onChange} control={control} />;
  if (field.dataTable === 'column') return <ColumnSelect value={value} onChange={onChange} control={control} />;
  if (field.projectFunction === 'function') return <FunctionSelect value={value} onChange={onChange} control={control} />;
  switch (field.kind) {
    case 'text':
    case 'value':
      return (
        <TemplateInput
          control={control}
          value={formatValue(value)}
          onChange={(text) => onChange(text === '' ? emptied : field.kind === 'value' ? parseValueText(text) : text)}
          suggestions={suggestions}
          placeholder="Text, or { for a reference"
        />
      );
    case 'enum':
      return (
        <select {...aria} value={field.options.includes(String(value)) ? String(value) : ''} onChange={(event) => onChange(event.target.value)}>
          {/* Nothing stored shows as nothing chosen, never as the first option. */}
          {!field.options.includes(String(value)) && (
            <option value="" disabled>
              Choose…
            </option>
          )}
          {field.options.map((option) => (
            <option key={option} value={option}>
              {optionLabel(option)}
            </option>
          ))}
        </select>
      );
    case 'number':
      return (
        <input
          {...aria}
          type="number"
          value={typeof value === 'number' ? value : ''}
          onChange={(event) => onChange(event.target.value === '' ? (field.nullable ? null : undefined) : Number(event.target.value))}
        />
      );
    case 'boolean':
      return <input {...aria} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} />;
    case 'flags': {
      // Unset means the schema's default (every choice).
      const chosen = new Set(Array.isArray(value) ? value : Array.isArray(field.defaultValue) ? field.defaultValue : []);
      const toggle = (option: string, on: boolean) => onChange(field.options.filter((other) => (other === option ? on : chosen.has(other))));
      return (
        <div {...aria} role="group" aria-labelledby={control.labelId} className="ws-flags">
          {field.options.map((option) => (
            <label key={option} className="ws-flag">
              <input type="checkbox" checked={chosen.has(option)} onChange={(event) => toggle(option, event.target.checked)} />
              {field.optionTitles[option] ?? option}
            </label>
          ))}
        </div>
      );
    }
    default:
      return (
        <input
          {...aria}
          type="text"
          spellCheck={false}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value === '' ? emptied : event.target.value)}
        />
      );
  }
}
