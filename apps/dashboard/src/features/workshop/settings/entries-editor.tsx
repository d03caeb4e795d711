import type { JsonValue } from '@flowgate/flow-engine';
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { atField } from '../diagnostics/diagnostic-lookup';
import { formatJson, fromEntries, parseJson, toEntries, type Entry } from '../model/json-entries';
import type { StructuredFieldProps } from './field-control';
import { FieldShell } from './field-shell';
import { focusAddedRow } from './focus-added-row';
import { TemplateInput } from './template-input';

const sameBody = (a: JsonValue | undefined, b: JsonValue | undefined) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * Respond's body as key/value entries, or as raw JSON under `Advanced`; an edit on either side
 * shows on the other. Invalid JSON is reported beside the box and not applied.
 */
export function EntriesEditor({ field, nodeId, value, onChange, diagnostics, suggestions }: StructuredFieldProps) {
  const [rows, setRows] = useState<Entry[]>(() => toEntries(value) ?? []);
  const [advanced, setAdvanced] = useState(() => toEntries(value) === null);
  const [jsonText, setJsonText] = useState(() => formatJson(value));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const jsonId = useId();

  // Undo, redo or the other side changed the body: show it, unless it is what is being typed.
  // Only an outside change of the body re-syncs; local typing is already in step.
  const showBody = useEffectEvent((body: typeof value) => {
    if (!sameBody(fromEntries(rows), body)) setRows(toEntries(body) ?? []);
    const typed = parseJson(jsonText);
    if (!typed.ok || !sameBody(typed.value, body)) {
      setJsonText(formatJson(body));
      setJsonError(null);
    }
  });
  useEffect(() => showBody(value), [value]);

  const editRows = (next: Entry[]) => {
    setRows(next);
    onChange(fromEntries(next));
  };
  const editJson = (text: string) => {
    setJsonText(text);
    const parsed = parseJson(text);
    setJsonError(parsed.ok ? null : parsed.message);
    if (parsed.ok) onChange(parsed.value);
  };
  const entriesPossible = toEntries(value) !== null;
  const problems = atField(diagnostics, nodeId, field.key);

  return (
    <fieldset className="ws-entries" data-field-key={field.key}>
      <legend>{field.title}</legend>
      <button type="button" className="ws-button ws-toggle" aria-pressed={advanced} onClick={() => setAdvanced(!advanced)}>
        Advanced
      </button>
      {advanced ? (
        <div className="ws-field">
          <label htmlFor={jsonId}>JSON Response</label>
          <textarea
            id={jsonId}
            className="ws-json"
            rows={8}
            spellCheck={false}
            value={jsonText}
            aria-invalid={jsonError !== null || problems.length > 0 || undefined}
            aria-describedby={jsonError ? `${jsonId}-error` : undefined}
            onChange={(event) => editJson(event.target.value)}
          />
          {jsonError && (
            <span id={`${jsonId}-error`} className="ws-field-error" role="alert">
              {jsonError} — not applied.
            </span>
          )}
        </div>
      ) : !entriesPossible ? (
        <p className="ws-muted">This body is not an object; edit it under Advanced.</p>
      ) : (
        <>
          {rows.map((row, index) => (
            <div className="ws-entry" key={index}>
              <FieldShell label="Key" fieldKey={`${field.key}.${row.key}#key`} problems={[]}>
                {(control) => (
                  <input
                    id={control.id}
                    type="text"
                    spellCheck={false}
                    value={row.key}
                    onChange={(event) => editRows(rows.map((other, at) => (at === index ? { ...other, key: event.target.value } : other)))}
                  />
                )}
              </FieldShell>
              <FieldShell label="Value" fieldKey={`${field.key}.${row.key}`} problems={atField(diagnostics, nodeId, `${field.key}.${row.key}`)}>
                {(control) => (
                  <TemplateInput
                    control={control}
                    value={row.value}
                    suggestions={suggestions}
                    onChange={(text) => editRows(rows.map((other, at) => (at === index ? { ...other, value: text } : other)))}
                  />
                )}
              </FieldShell>
              <button type="button" className="ws-button ws-quiet" onClick={() => editRows(rows.filter((_, at) => at !== index))}>
                Remove entry
              </button>
            </div>
          ))}
          <button type="button" className="ws-button" onClick={(event) => {
              setRows([...rows, { key: '', value: '' }]);
              focusAddedRow(event, '.ws-entry');
            }}>
            Add entry
          </button>
        </>
      )}
    </fieldset>
  );
}
