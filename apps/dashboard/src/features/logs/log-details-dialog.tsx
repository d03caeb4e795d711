import { useNavigate } from 'react-router';
import type { LogEntry } from '../../api/types';
import { Dialog } from '../../ui/dialog';
import { QueryState } from '../../ui/states';
import { useLogDetail } from './logs-queries';
import { exactTime } from './logs-table';

const orNone = (value: string | null | undefined, none: string) => (value ? <code>{value}</code> : <span className="muted">{none}</span>);

/** `Log details`: key name, error code and message, the failed block, the query, and Replay in Workshop. */
export function LogDetailsDialog({ projectId, entry, onClose }: { projectId: string; entry: LogEntry; onClose: () => void }) {
  const detail = useLogDetail(projectId, entry);
  const navigate = useNavigate();
  const endpointId = detail.data?.endpoint_id ?? null;
  const replay = () => navigate(`/projects/${projectId}/endpoints/${endpointId}?replay=${entry.id}`);
  return (
    <Dialog
      title="Log details"
      onClose={onClose}
      footer={
        <button type="button" className="button secondary" disabled={endpointId === null} onClick={replay} title={endpointId === null ? 'No endpoint answered this request' : undefined}>
          Replay in Workshop
        </button>
      }
    >
      <p>
        <span className="method">{entry.method}</span> <code>{entry.endpoint}</code> → <strong>{entry.status}</strong> in {entry.duration_ms} ms
      </p>
      <QueryState query={detail} label="Loading details…">
        {(d) => (
          <dl className="log-detail">
            <dt>Time</dt>
            <dd>
              <time dateTime={d.time}>{exactTime.format(new Date(d.time))}</time>
            </dd>
            <dt>Key</dt>
            <dd>{d.key_id === null ? <span className="muted">No key</span> : d.key_name ? <strong>{d.key_name}</strong> : <span className="muted">Deleted key</span>}</dd>
            <dt>Error code</dt>
            <dd>{orNone(d.code, 'None (success)')}</dd>
            <dt>Message</dt>
            <dd>{d.message ?? <span className="muted">None</span>}</dd>
            <dt>Failed block</dt>
            <dd>{orNone(d.error_node_id, 'None')}</dd>
            <dt>Query</dt>
            <dd className="log-query">{orNone(d.query ? `?${d.query}` : null, 'No query string')}</dd>
          </dl>
        )}
      </QueryState>
    </Dialog>
  );
}
