import { Link } from 'react-router';
import type { Schedule } from '../../api/types';
import { ListTable, NoValue } from '../../ui/list-table';
import { RelativeTime } from '../../ui/relative-time';
import { StatusBadge } from '../endpoints/status-badge';
import { cronWords, formatInZone } from './cron-reading';

interface Props {
  projectId: string;
  schedules: Schedule[];
  /** The schedule whose switch is being saved. */
  busy: string | undefined;
  onToggle(schedule: Schedule, enabled: boolean): void;
  onDelete(schedule: Schedule): void;
}

/** What the cron means in words, or nothing when it cannot be read (the Workshop says why). */
function wordsOf(cron: string): string | null {
  try {
    return cronWords(cron);
  } catch {
    return null;
  }
}

export function SchedulesTable({ projectId, schedules, busy, onToggle, onDelete }: Props) {
  return (
    <ListTable
      columns={['Name', 'Cron', 'Next run', 'Last run', 'Status']}
      className="schedules-table"
      actions
      items={schedules}
      rowKey={(schedule) => schedule.id}
      cells={(schedule) => (
        <>
          <td className="name">
            <Link to={`/projects/${projectId}/schedules/${schedule.id}`}>{schedule.name}</Link>
          </td>
          <td>
            <code>{schedule.cron}</code>
            <span className="muted cell-note">
              {wordsOf(schedule.cron)} · {schedule.timezone}
            </span>
          </td>
          <td className="when">
            {schedule.next_runs[0] ? (
              <time dateTime={schedule.next_runs[0]}>{formatInZone(new Date(schedule.next_runs[0]), schedule.timezone)}</time>
            ) : (
              <span className="muted">{schedule.status !== 'live' ? 'Not deployed' : 'Disabled'}</span>
            )}
          </td>
          <td className="when">
            {schedule.last_run ? (
              <>
                <RelativeTime iso={schedule.last_run.time} />
                <span className={schedule.last_run.status === 'ok' ? 'muted cell-note' : 'field-error cell-note'}>{schedule.last_run.status === 'ok' ? 'ok' : `failed: ${schedule.last_run.status}`}</span>
              </>
            ) : (
              <NoValue />
            )}
          </td>
          <td>
            <StatusBadge resource={schedule} />
          </td>
          <td className="actions">
            <div className="row-actions">
              <label className="switch">
                {/* Not `disabled` while saving: a disabled control drops the keyboard's focus to the page. */}
                <input
                  type="checkbox"
                  role="switch"
                  aria-label={`Enable ${schedule.name}`}
                  aria-disabled={busy === schedule.id || undefined}
                  checked={schedule.enabled}
                  onChange={(event) => busy !== schedule.id && onToggle(schedule, event.target.checked)}
                />
                <span aria-hidden="true">{schedule.enabled ? 'On' : 'Off'}</span>
              </label>
              <button type="button" className="button ghost" aria-label={`Delete schedule ${schedule.name}`} onClick={() => onDelete(schedule)}>
                Delete
              </button>
            </div>
          </td>
        </>
      )}
    />
  );
}
