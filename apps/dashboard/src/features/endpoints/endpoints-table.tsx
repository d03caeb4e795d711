import { Link } from 'react-router';
import type { Endpoint } from '../../api/types';
import { ListTable, NoValue } from '../../ui/list-table';
import { DeleteRowButton } from '../../ui/row-actions';
import { StatusBadge } from './status-badge';

export function EndpointsTable({ projectId, endpoints, onDelete }: { projectId: string; endpoints: Endpoint[]; onDelete: (endpoint: Endpoint) => void }) {
  return (
    <ListTable
      columns={['Name', 'Method', 'Path', 'Status', 'Live URL']}
      actions
      items={endpoints}
      rowKey={(endpoint) => endpoint.id}
      cells={(endpoint) => {
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
              <StatusBadge resource={endpoint} />
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
