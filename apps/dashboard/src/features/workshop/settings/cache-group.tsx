import type { CacheSettings } from '@flowgate/flow-engine';
import { useId } from 'react';
import { atField, forSettings } from '../diagnostics/diagnostic-lookup';
import { settingsOf } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { CommaListInput } from './comma-list-input';
import { FieldShell } from './field-shell';

const DEFAULT_CACHE: CacheSettings = { ttl_s: 60, vary_query: true, vary_headers: [], per_key: false };

/** GET answers kept in Redis for every gateway: a hit answers without running the flow. */
export function CacheGroup() {
  const cache = useWorkshop((state) => settingsOf(state.doc, 'endpoint').cache ?? null);
  const setSettings = useWorkshop((state) => state.setSettings);
  const problems = forSettings(useWorkshop((state) => state.diagnostics));
  const switchId = useId();
  const perKeyId = useId();
  const patch = (change: Partial<CacheSettings>, key: string) => cache && setSettings({ cache: { ...cache, ...change } }, `cache.${key}`);
  return (
    <fieldset className="ws-list" data-field-key="cache">
      <legend>Cache</legend>
      <div className="ws-check">
        <input id={switchId} type="checkbox" role="switch" checked={cache !== null} onChange={(event) => setSettings({ cache: event.target.checked ? DEFAULT_CACHE : null }, 'cache')} />
        <label htmlFor={switchId}>Cache answers</label>
      </div>
      {cache !== null && (
        <>
          <FieldShell label="Time to live (s)" fieldKey="cache.ttl_s" problems={atField(problems, null, 'cache.ttl_s')}>
            {(control) => (
              <input id={control.id} type="number" min={1} max={86400} value={cache.ttl_s} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} onChange={(event) => patch({ ttl_s: Number(event.target.value) }, 'ttl_s')} />
            )}
          </FieldShell>
          <FieldShell label="Vary by headers" fieldKey="cache.vary_headers" problems={atField(problems, null, 'cache.vary_headers')} hint="Header names, separated by commas (at most 5).">
            {(control) => <CommaListInput id={control.id} describedBy={control.describedBy} items={cache.vary_headers} placeholder="Accept-Language" onChange={(names) => patch({ vary_headers: names }, 'vary_headers')} />}
          </FieldShell>
          <div className="ws-check">
            <input id={perKeyId} type="checkbox" checked={cache.per_key} onChange={(event) => patch({ per_key: event.target.checked }, 'per_key')} />
            <label htmlFor={perKeyId}>One cache per key</label>
          </div>
          <p className="ws-muted">Answers vary by the query string. A Deploy, rollback or undeploy ends them at once.</p>
        </>
      )}
    </fieldset>
  );
}

