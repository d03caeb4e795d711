import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { useCreateSchedule } from '../../api/schedules';
import { useAnnounce } from '../../ui/announcer';
import { Dialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { FormError } from '../../ui/form-error';
import { localTimeZone, readCron } from './cron-reading';

const START_ONLY = { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] };

/** `New schedule`: a name and a clock; creating it opens its Workshop (Deploy starts it). */
export function NewScheduleDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const [name, setName] = useState('');
  const [cron, setCron] = useState('0 9 * * *');
  const [tried, setTried] = useState(false);
  const timezone = localTimeZone();
  const create = useCreateSchedule(projectId);
  const announce = useAnnounce();
  const navigate = useNavigate();
  const reading = readCron(cron, timezone);
  const nameProblem = tried && name.trim() === '' ? 'Give the schedule a name.' : null;
  const fieldError = (field: string) => (isApiError(create.error) ? create.error.fieldMessage(field) : undefined);

  const submit = () => {
    setTried(true);
    if (name.trim() === '' || !reading.ok) return;
    create.mutate(
      { name: name.trim(), cron: cron.trim(), timezone, enabled: true, flow: START_ONLY },
      {
        onSuccess: (schedule) => {
          announce(`Schedule ${schedule.name} created`);
          void navigate(`/projects/${projectId}/schedules/${schedule.id}`);
        },
      },
    );
  };

  return (
    <Dialog
      title="New schedule"
      onClose={onClose}
      unsaved={name.trim() !== ''}
      footer={
        <button type="submit" form="new-schedule" className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create schedule'}
        </button>
      }
    >
      <form
        id="new-schedule"
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field label="Schedule name" value={name} autoComplete="off" maxLength={100} onChange={(event) => setName(event.target.value)} error={nameProblem ?? fieldError('name')} hint="Logs list its runs under this name, e.g. Nightly clean-up" />
        <Field
          label="Cron"
          value={cron}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => setCron(event.target.value)}
          error={(!reading.ok ? reading.message : null) ?? fieldError('cron')}
          hint={reading.ok ? `Runs ${reading.words} (${timezone}); the time zone can be changed in the Workshop.` : 'minute hour day-of-month month day-of-week'}
        />
        {!fieldError('name') && !fieldError('cron') && <FormError error={create.error} />}
      </form>
    </Dialog>
  );
}
