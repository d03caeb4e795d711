import type { Secret } from '../../../api/types';
import { ListTable, NoValue } from '../../../ui/list-table';
import { RelativeTime } from '../../../ui/relative-time';

export function SecretsTable({ secrets, onReplace, onDelete }: { secrets: Secret[]; onReplace: (secret: Secret) => void; onDelete: (secret: Secret) => void }) {
  return (
    <ListTable
      columns={['Name', 'Description', 'Used by', 'Updated']}
      actions
      items={secrets}
      rowKey={(secret) => secret.name}
      cells={(secret) => (
        <>
          <td>
            <code>{secret.name}</code> {secret.has_preview_value && <span className="badge">preview value</span>}
          </td>
          <td>{secret.description ?? <NoValue />}</td>
          <td>{secret.used_by.length === 0 ? <span className="muted">No live endpoint</span> : secret.used_by.map((user) => user.name).join(', ')}</td>
          <td>
            <RelativeTime iso={secret.updated_at} />
          </td>
          <td className="actions">
            <button type="button" className="button ghost" aria-label={`Replace secret ${secret.name}`} onClick={() => onReplace(secret)}>
              Replace
            </button>
            <button type="button" className="button ghost" aria-label={`Delete secret ${secret.name}`} onClick={() => onDelete(secret)}>
              Delete
            </button>
          </td>
        </>
      )}
    />
  );
}
