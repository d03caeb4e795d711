import { useId } from 'react';
import { atField, forSettings } from '../diagnostics/diagnostic-lookup';
import { settingsOf } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { FieldShell } from './field-shell';

/** The endpoint as a tool of the project's MCP server (`/_mcp`) once deployed. */
export function McpGroup() {
  const mcp = useWorkshop((state) => settingsOf(state.doc, 'endpoint').mcp ?? null);
  const setSettings = useWorkshop((state) => state.setSettings);
  const problems = forSettings(useWorkshop((state) => state.diagnostics));
  const switchId = useId();
  return (
    <fieldset className="ws-list" data-field-key="mcp">
      <legend>MCP</legend>
      <div className="ws-check">
        <input id={switchId} type="checkbox" role="switch" checked={mcp?.enabled === true} onChange={(event) => setSettings({ mcp: event.target.checked ? { enabled: true } : null }, 'mcp')} />
        <label htmlFor={switchId}>Expose as MCP tool</label>
      </div>
      {mcp?.enabled === true && (
        <FieldShell label="Tool description" fieldKey="mcp.description" problems={atField(problems, null, 'mcp.description')} hint="What the tool does, for the model choosing it; empty: the endpoint’s name.">
          {(control) => (
            <textarea
              id={control.id}
              className="ws-json"
              rows={3}
              value={mcp.description ?? ''}
              aria-describedby={control.describedBy}
              onChange={(event) => setSettings({ mcp: { enabled: true, ...(event.target.value === '' ? {} : { description: event.target.value }) } }, 'mcp.description')}
            />
          )}
        </FieldShell>
      )}
    </fieldset>
  );
}
