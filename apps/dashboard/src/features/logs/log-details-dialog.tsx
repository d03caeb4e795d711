import { REQUEST_LOG_BODY_MAX } from '@flowgate/contracts';
import { useNavigate } from 'react-router';
import type { LogDetail, LogEntry } from '../../api/types';
import { Dialog } from '../../ui/dialog';
import { QueryState } from '../../ui/states';
import { useLogDetail } from './logs-queries';
import { exactTime } from './logs-table';

const orNone = (value: string | null | undefined, none: string) => (value ? <code>{value}</code> : <span className="muted">{none}</span>);

/** `1,234 bytes` below 10 KB, else `12.3 KB` / `4.5 MB` (decimal units, as browsers show sizes). */
export function byteSize(bytes: number): string {
  if (bytes < 10_000) return `${bytes.toLocaleString('en')} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

const CACHE_WORDS = {
  hit: 'Hit: served from the response cache, the flow did not run',
  miss: 'Miss: the flow ran (a 2xx answer is kept for the next requests)',
} as const;

/**
 * `Log details`: key name, error code and message, the failed block, the query, the request's
 * headers and body (as logged: credentials redacted, secret values masked, the body's first
 * 4,096 characters), the answer's size, cache and stream markers, and Replay in Workshop.
 */
export function LogDetailsDialog({ projectId, entry, onClose }: { projectId: string; entry: LogEntry; onClose: () => void }) {
  const detail = useLogDetail(projectId, entry);
  const navigate = useNavigate();
  const endpointId = detail.data?.endpoint_id ?? null;
  const replay = () => navigate(`/projects/${projectId}/endpoints/${endpointId}?replay=${entry.id}`);
  return (
    <Dialog
      title="Log details"
      wide
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
          <>
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
              <dt>Answer</dt>
              <dd>
                <strong>{d.status}</strong>
                {d.details?.response_bytes != null && <>, {byteSize(d.details.response_bytes)}</>}
                {d.streamed && <>, streamed</>}
              </dd>
              {d.cache != null && (
                <>
                  <dt>Cache</dt>
                  <dd>{CACHE_WORDS[d.cache]}</dd>
                </>
              )}
            </dl>
            <RequestDetails details={d.details} />
          </>
        )}
      </QueryState>
    </Dialog>
  );
}

/** The request's headers and body as logged; a note when the row has none (a schedule's run, an older gateway). */
function RequestDetails({ details }: { details: LogDetail['details'] }) {
  if (details == null) return <p className="muted">No request headers or body were logged for this run.</p>;
  return (
    <>
      <section className="log-request">
        <h3>Request headers</h3>
        {details.headers.length === 0 ? (
          <p className="muted">No headers</p>
        ) : (
          <table className="log-headers" aria-label="Request headers">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {details.headers.map(({ name, value }, index) => (
                <tr key={`${index}-${name}`}>
                  <th scope="row">
                    <code>{name}</code>
                  </th>
                  <td className={value === '[redacted]' ? 'muted' : undefined}>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="log-request">
        <h3>Request body</h3>
        <RequestBody details={details} />
      </section>
    </>
  );
}

function RequestBody({ details }: { details: NonNullable<LogDetail['details']> }) {
  const { body, body_bytes: bytes, body_truncated: truncated } = details;
  if (bytes === null || bytes === 0) return <p className="muted">No body</p>;
  if (body === null) return <p className="muted">{`A body of ${byteSize(bytes)} that is not text (not shown)`}</p>;
  return (
    <>
      <pre className="log-body" aria-label="Request body" tabIndex={0}>
        {body}
      </pre>
      <p className="muted">{truncated ? `First ${REQUEST_LOG_BODY_MAX.toLocaleString('en')} characters shown (the body is ${byteSize(bytes)})` : byteSize(bytes)}</p>
    </>
  );
}
