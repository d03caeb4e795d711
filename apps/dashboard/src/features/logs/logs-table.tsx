import type { LogEntry } from '../../api/types';
import { ListTable } from '../../ui/list-table';

export const exactTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
const statusClass = (status: number) => (status >= 500 ? 'badge badge-error' : status >= 400 ? 'badge changed' : 'badge live');

/** Endpoint, Time, Method, Status, Duration (ms), newest first; `fresh` rows (Live) are marked. */
export function LogsTable({ entries, fresh, onDetails }: { entries: LogEntry[]; fresh: ReadonlySet<string>; onDetails: (entry: LogEntry) => void }) {
  return (
    <ListTable
      className="logs-table"
      columns={['Endpoint', 'Time', 'Method', 'Status', 'Duration (ms)']}
      actions
      items={entries}
      rowKey={(entry) => entry.id}
      rowClassName={(entry) => (fresh.has(entry.id) ? 'row-fresh' : undefined)}
      cells={(entry) => (
        <>
          <td>
            <code>{entry.endpoint}</code>
          </td>
          <td>
            <time dateTime={entry.time}>{exactTime.format(new Date(entry.time))}</time>
          </td>
          <td>
            <span className="method">{entry.method}</span>
          </td>
          <td>
            <span className={statusClass(entry.status)}>{entry.status}</span>
            {entry.cache === 'hit' && (
              <span className="badge log-marker" title="Served from the response cache: the flow did not run">
                cached
              </span>
            )}
            {entry.streamed && (
              <span className="badge log-marker" title="Answered as a stream: the duration runs to its last byte">
                stream
              </span>
            )}
          </td>
          <td className="numeric">{entry.duration_ms.toFixed(entry.duration_ms < 10 ? 2 : 1)}</td>
          <td className="row-actions">
            <button type="button" className="button secondary small" onClick={() => onDetails(entry)} aria-label="Details" title={`Details of ${entry.method} ${entry.endpoint}`}>
              Details
            </button>
          </td>
        </>
      )}
    />
  );
}
