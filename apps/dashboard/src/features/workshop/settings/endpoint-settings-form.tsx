import { HTTP_METHODS, MAX_QUERY_PARAMS, QUERY_PARAM_TYPES, type QueryParamType } from '@flowgate/flow-engine';
import { atField, forSettings } from '../diagnostics/diagnostic-lookup';
import { settingsOf, type EndpointAuth, type EndpointSettingsDraft, type QueryParamDraft } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { BodySchemaGroup } from './body-schema-group';
import { CacheGroup } from './cache-group';
import { CommaListInput } from './comma-list-input';
import { focusAddedRow, focusInList } from './focus-added-row';
import { FieldShell } from './field-shell';
import { McpGroup } from './mcp-group';
import { SignatureGroup } from './signature-group';

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** A new type keeps the key and default; `values` belongs to enums only. */
const typeChange = (type: QueryParamType): Partial<QueryParamDraft> => (type === 'enum' ? { type } : { type, values: undefined });

const AUTH_OPTIONS: readonly EndpointAuth[] = ['none', 'user', 'admin'];

/**
 * The defaults a parameter can take when they are few: an enum's values, true or false; null
 * for free text. A default typed before the values changed stays listed, so that it shows (and
 * its problem is reported) rather than silently reading as "No default".
 */
function defaultChoices(param: QueryParamDraft): readonly string[] | null {
  const choices = param.type === 'enum' ? (param.values ?? []).filter((value) => value !== '') : param.type === 'boolean' ? ['true', 'false'] : null;
  if (choices === null || param.default === null || param.default === undefined || param.default === '' || choices.includes(param.default)) return choices;
  return [...choices, param.default];
}

/** The start block's form: what the gateway routes and authenticates on. */
export function EndpointSettingsForm() {
  const settings = useWorkshop((state) => settingsOf(state.doc, 'endpoint'));
  const setSettings = useWorkshop((state) => state.setSettings);
  const touch = useWorkshop((state) => state.touch);
  const problems = forSettings(useWorkshop((state) => state.diagnostics));
  const params = settings.query_params;
  const setParams = (next: QueryParamDraft[], key: string) => setSettings({ query_params: next }, key);
  const editParam = (index: number, patch: Partial<QueryParamDraft>) =>
    setParams(
      params.map((param, at) => (at === index ? { ...param, ...patch } : param)),
      `query_params.${index}.${Object.keys(patch)[0]}`,
    );
  const text = (key: 'name' | 'path', label: string, extra: { placeholder?: string } = {}) => (
    <FieldShell label={label} fieldKey={key} problems={atField(problems, null, key)}>
      {(control) => (
        <input
          id={control.id}
          type="text"
          spellCheck={false}
          aria-invalid={control.invalid || undefined}
          aria-describedby={control.describedBy}
          value={settings[key]}
          onChange={(event) => setSettings({ [key]: event.target.value } as Partial<EndpointSettingsDraft>, key)}
          {...extra}
        />
      )}
    </FieldShell>
  );

  return (
    <div className="ws-form">
      <h2 className="ws-panel-title">Base settings</h2>
      <p className="ws-muted ws-description">Where requests enter the flow: the endpoint’s address, method and who may call it.</p>
      {text('name', 'Endpoint name')}
      <FieldShell label="Method" fieldKey="method" problems={atField(problems, null, 'method')}>
        {(control) => (
          <select id={control.id} value={settings.method} onChange={(event) => setSettings({ method: event.target.value as EndpointSettingsDraft['method'] }, 'method')}>
            {HTTP_METHODS.map((method) => (
              <option key={method}>{method}</option>
            ))}
          </select>
        )}
      </FieldShell>
      {text('path', 'Path', { placeholder: '/orders' })}
      <FieldShell label="Authentication" fieldKey="auth" problems={atField(problems, null, 'auth')}>
        {(control) => (
          <select id={control.id} value={settings.auth} onChange={(event) => setSettings({ auth: event.target.value as EndpointAuth }, 'auth')}>
            {AUTH_OPTIONS.map((auth) => (
              <option key={auth}>{auth}</option>
            ))}
          </select>
        )}
      </FieldShell>
      <fieldset className="ws-list" data-field-key="query_params">
        <legend>Query parameters</legend>
        {params.length === 0 && <p className="ws-muted">None. Parameters are read as {'{params.KEY}'}.</p>}
        {params.map((param, index) => (
          <div className="ws-list-row ws-param-row" key={index}>
            <FieldShell label="Parameter key" fieldKey={`query_params.${index}.key`} problems={atField(problems, null, `query_params.${index}.key`)}>
              {(control) => (
                <input id={control.id} type="text" spellCheck={false} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={param.key} onChange={(event) => editParam(index, { key: event.target.value })} onBlur={() => touch(`query_params.${index}.key`)} />
              )}
            </FieldShell>
            <FieldShell label="Type" fieldKey={`query_params.${index}.type`} problems={atField(problems, null, `query_params.${index}.type`)}>
              {(control) => (
                <select id={control.id} value={param.type ?? 'string'} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} onChange={(event) => editParam(index, typeChange(event.target.value as QueryParamType))}>
                  {QUERY_PARAM_TYPES.map((type) => (
                    <option key={type}>{type}</option>
                  ))}
                </select>
              )}
            </FieldShell>
            {param.type === 'enum' && (
              <FieldShell label="Values" fieldKey={`query_params.${index}.values`} problems={atField(problems, null, `query_params.${index}.values`)} hint="The accepted values, separated by commas.">
                {(control) => <CommaListInput id={control.id} describedBy={control.describedBy} items={param.values ?? []} placeholder="asc, desc" onChange={(values) => editParam(index, { values })} />}
              </FieldShell>
            )}
            <FieldShell label="Default value" fieldKey={`query_params.${index}.default`} problems={atField(problems, null, `query_params.${index}.default`)}>
              {(control) => {
                const choices = defaultChoices(param);
                return choices === null ? (
                  <input id={control.id} type="text" value={param.default ?? ''} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} onChange={(event) => editParam(index, { default: event.target.value })} />
                ) : (
                  <select id={control.id} value={param.default ?? ''} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} onChange={(event) => editParam(index, { default: event.target.value === '' ? null : event.target.value })}>
                    <option value="">No default</option>
                    {choices.map((choice) => (
                      <option key={choice}>{choice}</option>
                    ))}
                  </select>
                );
              }}
            </FieldShell>
            <label className="ws-check">
              <input type="checkbox" checked={param.required === true} onChange={(event) => editParam(index, { required: event.target.checked })} /> Required
            </label>
            <button
              type="button"
              className="ws-button ws-quiet"
              onClick={(event) => {
                setParams(params.filter((_, at) => at !== index), 'query_params.remove');
                focusInList(event, '[data-add-parameter]');
              }}
            >
              Remove parameter
            </button>
          </div>
        ))}
        <button
          type="button"
          className="ws-button"
          data-add-parameter
          disabled={params.length >= MAX_QUERY_PARAMS}
          onClick={(event) => {
            setParams([...params, { key: '', default: null }], 'query_params.add');
            focusAddedRow(event, '.ws-list-row');
          }}
        >
          Add query parameter
        </button>
        {params.length >= MAX_QUERY_PARAMS && <span className="ws-field-hint">An endpoint takes at most {MAX_QUERY_PARAMS} query parameters.</span>}
      </fieldset>
      {BODY_METHODS.has(settings.method) && <BodySchemaGroup />}
      <SignatureGroup />
      {settings.method === 'GET' && <CacheGroup />}
      <McpGroup />
    </div>
  );
}

