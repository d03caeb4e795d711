import { HTTP_METHODS, MAX_QUERY_PARAMS } from '@flowgate/flow-engine';
import { atField, forSettings } from '../diagnostics/diagnostic-lookup';
import type { EndpointAuth, QueryParamDraft, SettingsDraft } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { FieldShell } from './field-shell';

const AUTH_OPTIONS: readonly EndpointAuth[] = ['none', 'user', 'admin'];

/** The start block's form: what the gateway routes and authenticates on. */
export function BaseSettingsForm() {
  const settings = useWorkshop((state) => state.doc.settings);
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
          onChange={(event) => setSettings({ [key]: event.target.value } as Partial<SettingsDraft>, key)}
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
          <select id={control.id} value={settings.method} onChange={(event) => setSettings({ method: event.target.value as SettingsDraft['method'] }, 'method')}>
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
          <div className="ws-list-row" key={index}>
            <FieldShell label="Parameter key" fieldKey={`query_params.${index}.key`} problems={atField(problems, null, `query_params.${index}.key`)}>
              {(control) => (
                <input id={control.id} type="text" spellCheck={false} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={param.key} onChange={(event) => editParam(index, { key: event.target.value })} onBlur={() => touch(`query_params.${index}.key`)} />
              )}
            </FieldShell>
            <FieldShell label="Default value" fieldKey={`query_params.${index}.default`} problems={atField(problems, null, `query_params.${index}.default`)}>
              {(control) => <input id={control.id} type="text" value={param.default ?? ''} onChange={(event) => editParam(index, { default: event.target.value })} />}
            </FieldShell>
            <button type="button" className="ws-button ws-quiet" onClick={() => setParams(params.filter((_, at) => at !== index), 'query_params.remove')}>
              Remove parameter
            </button>
          </div>
        ))}
        <button
          type="button"
          className="ws-button"
          disabled={params.length >= MAX_QUERY_PARAMS}
          onClick={() => setParams([...params, { key: '', default: null }], 'query_params.add')}
        >
          Add query parameter
        </button>
        {params.length >= MAX_QUERY_PARAMS && <span className="ws-field-hint">An endpoint takes at most {MAX_QUERY_PARAMS} query parameters.</span>}
      </fieldset>
    </div>
  );
}
