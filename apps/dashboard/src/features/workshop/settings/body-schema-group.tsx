import { MAX_BODY_SCHEMA_DEPTH, type BodySchema } from '@flowgate/flow-engine';
import { useState } from 'react';
import { atField, forSettings } from '../diagnostics/diagnostic-lookup';
import { FIELD_TYPES, fieldsOf, fieldTypeOf, freshFieldName, schemaOfType, withFields, type BodyField, type FieldType } from '../model/body-fields';
import { settingsOf } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { FieldShell } from './field-shell';
import { focusAddedRow, focusInList } from './focus-added-row';

const TYPE_LABELS: Record<FieldType, string> = { string: 'Text', number: 'Number', integer: 'Whole number', boolean: 'True/false', object: 'Object', list: 'List' };
const NO_PROBLEMS: never[] = [];

/**
 * The body an endpoint accepts (POST, PUT, PATCH): a list of fields, nested for objects and
 * lists, or the raw JSON Schema. The gateway refuses a body that does not match (400).
 */
export function BodySchemaGroup() {
  const schema = useWorkshop((state) => settingsOf(state.doc, 'endpoint').body_schema ?? null);
  const setSettings = useWorkshop((state) => state.setSettings);
  const problems = atField(forSettings(useWorkshop((state) => state.diagnostics)), null, 'body_schema');
  const [asJson, setAsJson] = useState(false);
  const set = (next: BodySchema | null) => setSettings({ body_schema: next }, 'body_schema');
  return (
    <fieldset className="ws-list ws-body-schema" data-field-key="body_schema">
      <legend>Body</legend>
      {problems.length > 0 && <p className="ws-field-error">{problems.map((problem) => problem.message).join(' ')}</p>}
      {asJson ? (
        <JsonSchemaText schema={schema} onChange={set} />
      ) : schema === null ? (
        <>
          <p className="ws-muted">Any JSON body is accepted. Add fields to have the gateway refuse a body that does not match (400).</p>
          <button
            type="button"
            className="ws-button"
            data-add-field
            onClick={(event) => {
              set(withFields({ type: 'object' }, [{ name: 'field', schema: { type: 'string' }, required: false }]));
              focusAddedRow(event, '.ws-list-row');
            }}
          >
            Add field
          </button>
        </>
      ) : fieldTypeOf(schema) === 'object' ? (
        <FieldList schema={schema} onChange={set} depth={1} path="body" />
      ) : (
        <p className="ws-muted">The body must be a {TYPE_LABELS[fieldTypeOf(schema)].toLowerCase()}: edit it as JSON Schema.</p>
      )}
      <div className="ws-row-actions">
        <button
          type="button"
          className="ws-button ws-quiet"
          aria-expanded={asJson}
          onClick={(event) => {
            setAsJson(!asJson);
            if (!asJson) focusInList(event, 'textarea');
          }}
        >
          {/* Shows that the raw schema is open (the name stays the disclosure's). */}
          <span aria-hidden="true" className="ws-disclosure-mark">
            {asJson ? '▾' : '▸'}
          </span>
          Edit as JSON Schema
        </button>
        {schema !== null && (
          <button
            type="button"
            className="ws-button ws-quiet"
            onClick={(event) => {
              set(null);
              focusInList(event, '[data-add-field], textarea');
            }}
          >
            Accept any body
          </button>
        )}
      </div>
    </fieldset>
  );
}

function FieldList({ schema, onChange, depth, path }: { schema: BodySchema; onChange: (next: BodySchema) => void; depth: number; path: string }) {
  const fields = fieldsOf(schema);
  const replace = (next: BodyField[]) => onChange(withFields(schema, next));
  const update = (index: number, patch: Partial<BodyField>) => replace(fields.map((field, at) => (at === index ? { ...field, ...patch } : field)));
  return (
    <ul className="ws-body-fields" aria-label={path === 'body' ? 'Body fields' : `Fields of ${path}`}>
      {fields.map((field, index) => (
        <li key={index} className="ws-list-row">
          <FieldShell label="Field name" fieldKey={`body_schema.${path}.${index}.name`} problems={NO_PROBLEMS}>
            {(control) => <input id={control.id} type="text" spellCheck={false} value={field.name} onChange={(event) => update(index, { name: event.target.value })} />}
          </FieldShell>
          <TypeSelect label="Type" value={fieldTypeOf(field.schema)} onChange={(type) => update(index, { schema: schemaOfType(type) })} canNest={depth < MAX_BODY_SCHEMA_DEPTH - 1} />
          <label className="ws-check">
            <input type="checkbox" checked={field.required} onChange={(event) => update(index, { required: event.target.checked })} /> Required
          </label>
          <button
            type="button"
            className="ws-button ws-quiet"
            aria-label={`Remove field ${field.name}`}
            onClick={(event) => {
              replace(fields.filter((_, at) => at !== index));
              focusInList(event, ':scope > li > [data-add-field]', 'ul');
            }}
          >
            Remove field
          </button>
          <Nested field={field} depth={depth} path={`${path}.${field.name}`} onChange={(child) => update(index, { schema: child })} />
        </li>
      ))}
      <li>
        <button
          type="button"
          className="ws-button"
          data-add-field
          onClick={(event) => {
            replace([...fields, { name: freshFieldName(fields), schema: { type: 'string' }, required: false }]);
            focusAddedRow(event, ':scope > .ws-list-row', 'ul');
          }}
        >
          Add field
        </button>
      </li>
    </ul>
  );
}

/** An object's fields, or a list's item type (and its fields when items are objects). */
function Nested({ field, depth, path, onChange }: { field: BodyField; depth: number; path: string; onChange: (next: BodySchema) => void }) {
  const type = fieldTypeOf(field.schema);
  if (type === 'object') return <FieldList schema={field.schema} onChange={onChange} depth={depth + 1} path={path} />;
  if (type !== 'list') return null;
  const items = field.schema.items ?? { type: 'string' };
  return (
    <div className="ws-nested">
      <TypeSelect label="Item type" value={fieldTypeOf(items)} onChange={(itemType) => onChange({ ...field.schema, items: schemaOfType(itemType) })} canNest={depth < MAX_BODY_SCHEMA_DEPTH - 2} />
      {fieldTypeOf(items) === 'object' && <FieldList schema={items} onChange={(next) => onChange({ ...field.schema, items: next })} depth={depth + 2} path={`${path}[]`} />}
    </div>
  );
}

function TypeSelect({ label, value, onChange, canNest }: { label: string; value: FieldType; onChange: (type: FieldType) => void; canNest: boolean }) {
  return (
    <FieldShell label={label} fieldKey={label} problems={NO_PROBLEMS}>
      {(control) => (
        <select id={control.id} value={value} onChange={(event) => onChange(event.target.value as FieldType)}>
          {FIELD_TYPES.filter((type) => canNest || (type !== 'object' && type !== 'list') || type === value).map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** The raw schema; a change that is not a JSON object is shown, not applied. */
function JsonSchemaText({ schema, onChange }: { schema: BodySchema | null; onChange: (next: BodySchema | null) => void }) {
  const [text, setText] = useState(() => (schema === null ? '' : JSON.stringify(schema, null, 2)));
  const [problem, setProblem] = useState<string | null>(null);
  const edit = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setProblem(null);
      return onChange(null);
    }
    try {
      const parsed: unknown = JSON.parse(next);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return setProblem('A JSON Schema is a JSON object.');
      setProblem(null);
      onChange(parsed as BodySchema);
    } catch (error) {
      setProblem(`Not valid JSON yet: ${(error as Error).message}`);
    }
  };
  return (
    <FieldShell label="JSON Schema" fieldKey="body_schema.json" problems={NO_PROBLEMS} hint={problem ?? 'Keywords: type, properties, required, items, enum, minimum, maximum, minLength, maxLength, pattern, additionalProperties, description.'}>
      {(control) => (
        <textarea id={control.id} className="ws-json" rows={12} spellCheck={false} value={text} aria-invalid={problem !== null || undefined} aria-describedby={control.describedBy} onChange={(event) => edit(event.target.value)} />
      )}
    </FieldShell>
  );
}
