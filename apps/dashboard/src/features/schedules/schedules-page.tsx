import { useState } from 'react';
import { errorMessage } from '../../api/api-error';
import { useDeleteSchedule, useSchedules, useSetScheduleEnabled } from '../../api/schedules';
import type { Schedule } from '../../api/types';
import { useAnnounce } from '../../ui/announcer';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ListState } from '../../ui/states';
import { useCurrentProject } from '../../ui/use-current-project';
import { useDocumentTitle } from '../../ui/use-document-title';
import { usePendingDelete } from '../../ui/use-pending-delete';
import { NewScheduleDialog } from './new-schedule-dialog';
import { SchedulesTable } from './schedules-table';

/** `/projects/:id/schedules`: the project's schedules, each switched on or off in its row. */
export function SchedulesPage() {
  const project = useCurrentProject();
  useDocumentTitle('Schedules', project.name);
  const schedules = useSchedules(project.id);
  const remove = useDeleteSchedule(project.id);
  const deletion = usePendingDelete<Schedule>(remove, 'Schedule');
  const toggle = useSetScheduleEnabled(project.id);
  const announce = useAnnounce();
  const [creating, setCreating] = useState(false);

  const setEnabled = (schedule: Schedule, enabled: boolean) =>
    toggle.mutate({ schedule, enabled }, { onSuccess: () => announce(`Schedule ${schedule.name} ${enabled ? 'enabled' : 'disabled'}`) });

  return (
    <section className="page" aria-labelledby="schedules-title">
      <div className="page-header">
        <div>
          <h1 id="schedules-title">Schedules</h1>
          <p className="muted">Flows that run on a clock once deployed and enabled; their runs show in Logs with the trigger Schedule.</p>
        </div>
        <div className="page-actions">
          <button type="button" className="button" onClick={() => setCreating(true)}>
            New schedule
          </button>
        </div>
      </div>
      {toggle.error && toggle.variables && (
        <p className="form-error" role="alert">
          {toggle.variables.schedule.name} was not {toggle.variables.enabled ? 'enabled' : 'disabled'}: {errorMessage(toggle.error)}
        </p>
      )}
      <ListState query={schedules} label="Loading schedules…" emptyTitle="No schedules yet" emptyHint="New schedule sets a clock (a cron and a time zone) and opens its flow in the Workshop; Deploy starts it.">
        {(items) => <SchedulesTable projectId={project.id} schedules={items} busy={toggle.isPending ? toggle.variables?.schedule.id : undefined} onToggle={setEnabled} onDelete={deletion.ask} />}
      </ListState>
      {creating && <NewScheduleDialog projectId={project.id} onClose={() => setCreating(false)} />}
      {deletion.pending && (
        <ConfirmDialog title={`Delete schedule ${deletion.pending.name}?`} onConfirm={deletion.confirm} onCancel={deletion.cancel} busy={remove.isPending} error={remove.error}>
          <p>It stops running at once and its versions are removed; its past runs stay in Logs. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
