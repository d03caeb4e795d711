import type { JsonValue } from '@flowgate/flow-engine';
import { useFlowContext } from '../flow-context';
import { EntriesEditor } from './entries-editor';
import type { ControlProps } from './field-shell';
import type { StructuredFieldProps } from './field-control';
import { NamedValuesEditor } from './named-values-editor';

/** `Function`: a combobox of the project's functions by name (a deleted one stays, marked). */
export function FunctionSelect({ value, onChange, control }: { value: JsonValue | undefined; onChange(value: JsonValue | undefined): void; control: ControlProps }) {
  const functions = useFlowContext().functions;
  const current = typeof value === 'string' ? value : '';
  const missing = current !== '' && functions !== undefined && !functions.some((fn) => fn.id === current);
  const empty = functions === undefined ? 'Loading functions…' : functions.length === 0 ? 'No functions yet (add one on the Functions page)' : 'Choose a function';
  return (
    <select id={control.id} aria-invalid={control.invalid || missing || undefined} aria-describedby={control.describedBy} value={current} onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}>
      <option value="">{empty}</option>
      {missing && <option value={current}>A deleted function</option>}
      {functions?.map((fn) => (
        <option key={fn.id} value={fn.id}>
          {fn.name}
          {fn.live ? '' : ' (not deployed)'}
        </option>
      ))}
    </select>
  );
}

/**
 * Call Function's arguments: one template field per input of the chosen function, labelled by
 * the input's name (a text input keeps `42` as text; other types keep JSON types); an empty field
 * is left out (the input's default applies). Without a known function: key/value entries.
 */
export function FunctionArgsEditor(props: StructuredFieldProps & { functionId: unknown }) {
  const fn = useFlowContext().functions?.find((candidate) => candidate.id === props.functionId);
  if (!fn) return <EntriesEditor {...props} />;
  const slots = fn.inputs.map((input) => ({
    name: input.name,
    textual: input.type === 'string',
    hint: `${input.type}${input.required ? ', required' : ''}${input.default !== undefined && input.default !== null ? `, default ${JSON.stringify(input.default)}` : ''}`,
  }));
  return (
    <>
      {slots.length === 0 && <p className="ws-muted">{fn.name} takes no inputs.</p>}
      <NamedValuesEditor {...props} legend={`Inputs of ${fn.name}`} owner={`inputs of ${fn.name}`} slots={slots} placeholder="Empty: its default" />
    </>
  );
}
