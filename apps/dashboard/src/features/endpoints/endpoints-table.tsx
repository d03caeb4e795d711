import { Link } from 'react-router';
import type { Endpoint } from '../../api/types';
import { ActionsHeader, DeleteRowButton } from '../../ui/row-actions';
import { endpointStatus } from './endpoint-status';

const BADGE = { Live: 'badge live', Draft: 'badge', 'Live · changes not deployed': 'badge changed' } as const;

export function EndpointsTable({ projectId, endpoints, onDelete }: { projectId: string; endpoints: Endpoint[]; onDelete: (endpoint: Endpoint) => void }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Method</th>
            <th scope="col">Path</th>
            <th scope="col">Status</th>
            <th scope="col">Live URL</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => {
            const status = endpointStatus(endpoint);
            return (
              <tr key={endpoint.id}>
                <td className="name">
                  <Link to={`/projects/${projectId}/endpoints/${endpoint.id}`}>{endpoint.name}</Link>
                </td>
                <td className="method">{endpoint.method}</td>
                <td>
                  <code>{endpoint.path}</code>
                </td>
                <td>
                  <span className={BADGE[status]}>{status}</span>
                </td>
                <td className="url">
                  {endpoint.live_url ? (
                    <a href={endpoint.live_url} target="_blank" rel="noreferrer">
                      {endpoint.live_url}
                    </a>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <DeleteRowButton label={`Delete endpoint ${endpoint.name}`} onClick={() => onDelete(endpoint)} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
