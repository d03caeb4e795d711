import { Link } from 'react-router';
import type { Endpoint } from '../../api/types';
import { ListTable, NoValue } from '../../ui/list-table';
import { DeleteRowButton } from '../../ui/row-actions';
import { endpointStatus } from './endpoint-status';

const BADGE = { Live: 'badge live', Draft: 'badge', 'Live · changes not deployed': 'badge changed' } as const;

export function EndpointsTable({ projectId, endpoints, onDelete }: { projectId: string; endpoints: Endpoint[]; onDelete: (endpoint: Endpoint) => void }) {
  return (
    <ListTable
      columns={['Name', 'Method', 'Path', 'Status', 'Live URL']}
      actions
      items={endpoints}
      rowKey={(endpoint) => endpoint.id}
      cells={(endpoint) => {
        const status = endpointStatus(endpoint);
        return (
          <>
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
                <NoValue />
              )}
            </td>
            <DeleteRowButton label={`Delete endpoint ${endpoint.name}`} onClick={() => onDelete(endpoint)} />
          </>
        );
      }}
    />
  );
}
