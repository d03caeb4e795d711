import { useMemo } from 'react';
import { formatInZone, readCron, timeZones } from '../../schedules/cron-reading';
import { atField, forSettings, mergeProblems } from '../diagnostics/diagnostic-lookup';
import { settingsOf } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { FieldShell } from './field-shell';

const ZONES = timeZones();

/**
 * A schedule's start block: its name, its clock (the cron read in plain words with its next five
 * runs on the chosen time zone's clock, checked as Save checks it) and whether it runs.
 */
export function ScheduleSettingsForm() {
  const settings = useWorkshop((state) => settingsOf(state.doc, 'schedule'));
  const setSettings = useWorkshop((state) => state.setSettings);
  const server = forSettings(mergeProblems(useWorkshop((state) => state.diagnostics), useWorkshop((state) => state.serverProblems)));
  const reading = useMemo(() => readCron(settings.cron, settings.timezone), [settings.cron, settings.timezone]);
  const local = (field: 'cron' | 'timezone') =>
    !reading.ok && reading.field === field ? [{ severity: 'error' as const, code: 'invalid_request', node_id: null, field, message: reading.message }] : atField(server, null, field);
  const zones = ZONES.includes(settings.timezone) ? ZONES : [settings.timezone, ...ZONES];

  return (
    <div className="ws-form">
      <h2 className="ws-panel-title">Base settings</h2>
      <p className="ws-muted ws-description">When the flow runs: on this clock while deployed and enabled, or at once with Run now.</p>
      <FieldShell label="Schedule name" fieldKey="name" problems={atField(server, null, 'name')}>
        {(control) => (
          <input id={control.id} type="text" aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={settings.name} onChange={(event) => setSettings({ name: event.target.value }, 'name')} />
        )}
      </FieldShell>
      <FieldShell
        label="Cron"
        fieldKey="cron"
        problems={local('cron')}
        hint="minute hour day-of-month month day-of-week, or @hourly, @daily, @weekly, @monthly, @yearly"
      >
        {(control) => (
          <input id={control.id} type="text" spellCheck={false} className="ws-mono" aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={settings.cron} placeholder="0 9 * * *" onChange={(event) => setSettings({ cron: event.target.value }, 'cron')} />
        )}
      </FieldShell>
      {reading.ok && (
        <div className="ws-cron-reading" role="group" aria-label="When it runs">
          <p>
            Runs <strong>{reading.words}</strong> ({settings.timezone}).
          </p>
          <p className="ws-muted">Next five runs:</p>
          <ol className="ws-next-runs" aria-label="Next five runs">
            {reading.next.map((date) => (
              <li key={date.toISOString()}>
                <time dateTime={date.toISOString()}>{formatInZone(date, settings.timezone)}</time>
              </li>
            ))}
          </ol>
        </div>
      )}
      <FieldShell label="Time zone" fieldKey="timezone" problems={local('timezone')}>
        {(control) => (
          <select id={control.id} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} value={settings.timezone} onChange={(event) => setSettings({ timezone: event.target.value }, 'timezone')}>
            {zones.map((zone) => (
              <option key={zone}>{zone}</option>
            ))}
          </select>
        )}
      </FieldShell>
      <div className="ws-field" data-field-key="enabled">
        <label className="ws-check">
          <input type="checkbox" role="switch" checked={settings.enabled} onChange={(event) => setSettings({ enabled: event.target.checked }, 'enabled')} /> Enabled
        </label>
        <p className="ws-field-hint">{settings.enabled ? 'Runs on its clock once deployed (Save switches a live schedule at once).' : 'Does not run on its clock; Run now still runs the live version.'}</p>
      </div>
    </div>
  );
}
