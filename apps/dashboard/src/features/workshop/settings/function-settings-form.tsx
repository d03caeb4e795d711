import type { FunctionInputType } from '@flowgate/flow-engine';
import { atField, forSettings, mergeProblems } from '../diagnostics/diagnostic-lookup';
import { formatValue, parseValueText } from '../model/template-value';
import { settingsOf, type FunctionInputDraft } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { FieldShell } from './field-shell';
import { focusAddedRow } from './focus-added-row';

const INPUT_TYPES: readonly FunctionInputType[] = ['string', 'number', 'boolean', 'object', 'list', 'any'];
/** The control plane's limit (docs/functions-and-schedules.md). */
const MAX_INPUTS = 20;

/** A default as typed: text for a string input, else JSON where it parses (42, true, {"a":1}); empty is none. */
const defaultFrom = (text: string, type: FunctionInputType): unknown => (text === '' ? undefined : type === 'string' ? text : parseValueText(text));

/** A function's start block: its name, description and typed inputs (read in its flow as `{input.NAME}`). */
export function FunctionSettingsForm() {
  const settings = useWorkshop((state) => settingsOf(state.doc, 'function'));
  const setSettings = useWorkshop((state) => state.setSettings);
  const touch = useWorkshop((state) => state.touch);
  const problems = forSettings(mergeProblems(useWorkshop((state) => state.diagnostics), useWorkshop((state) => state.serverProblems)));
  const inputs = settings.inputs;
  const setInputs = (next: FunctionInputDraft[], key: string) => setSettings({ inputs: next }, key);
  const edit = (index: number, patch: Partial<FunctionInputDraft>) =>
    setInputs(
      inputs.map((input, at) => (at === index ? { ...input, ...patch } : input)),
      `inputs.${index}.${Object.keys(patch)[0]}`,
    );

  return (
    <div className="ws-form">
      <h2 className="ws-panel-title">Base settings</h2>
      <p className="ws-muted ws-description">What callers see: the function’s name in Call Function and the inputs it takes.</p>
      <FieldShell label="Function name" fieldKey="name" problems={atField(problems, null, 'name')}>
        {(control) => (
          <input id={control.id} type="text" aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={settings.name} onChange={(event) => setSettings({ name: event.target.value }, 'name')} />
        )}
      </FieldShell>
      <FieldShell label="Description" fieldKey="description" problems={atField(problems, null, 'description')}>
        {(control) => <textarea id={control.id} rows={2} aria-describedby={control.describedBy} value={settings.description} onChange={(event) => setSettings({ description: event.target.value }, 'description')} />}
      </FieldShell>
      <fieldset className="ws-list" data-field-key="inputs">
        <legend>Inputs</legend>
        {inputs.length === 0 && <p className="ws-muted">None yet. The flow reads an input as {'{input.NAME}'}; Call Function gives one value per input.</p>}
        {inputs.map((input, index) => (
          <div className="ws-list-row" key={index}>
            <FieldShell label="Input name" fieldKey={`inputs.${index}.name`} problems={atField(problems, null, `inputs.${index}.name`)}>
              {(control) => (
                <input id={control.id} type="text" spellCheck={false} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={input.name} onChange={(event) => edit(index, { name: event.target.value })} onBlur={() => touch(`inputs.${index}.name`)} />
              )}
            </FieldShell>
            <FieldShell label="Type" fieldKey={`inputs.${index}.type`} problems={atField(problems, null, `inputs.${index}.type`)}>
              {(control) => (
                <select id={control.id} value={input.type} onChange={(event) => edit(index, { type: event.target.value as FunctionInputType, default: undefined })}>
                  {INPUT_TYPES.map((type) => (
                    <option key={type}>{type}</option>
                  ))}
                </select>
              )}
            </FieldShell>
            <FieldShell label="Default" fieldKey={`inputs.${index}.default`} problems={atField(problems, null, `inputs.${index}.default`)} hint={input.type === 'string' ? undefined : 'JSON: 42, true, {"a": 1}'}>
              {(control) => (
                <input id={control.id} type="text" spellCheck={false} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={formatValue(input.default as never)} onChange={(event) => edit(index, { default: defaultFrom(event.target.value, input.type) })} />
              )}
            </FieldShell>
            <label className="ws-check">
              <input type="checkbox" checked={input.required} onChange={(event) => edit(index, { required: event.target.checked })} /> Required
            </label>
            <button type="button" className="ws-button ws-quiet" aria-label={`Remove input ${input.name || index + 1}`} onClick={() => setInputs(inputs.filter((_, at) => at !== index), 'inputs.remove')}>
              Remove input
            </button>
          </div>
        ))}
        <button
          type="button"
          className="ws-button"
          disabled={inputs.length >= MAX_INPUTS}
          onClick={(event) => {
            setInputs([...inputs, { name: '', type: 'string', required: false }], 'inputs.add');
            focusAddedRow(event, '.ws-list-row');
          }}
        >
          Add input
        </button>
        {inputs.length >= MAX_INPUTS && <span className="ws-field-hint">A function takes at most {MAX_INPUTS} inputs.</span>}
      </fieldset>
    </div>
  );
}
