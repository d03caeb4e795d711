import type { Secret } from '../../../api/types';
import { RelativeTime } from '../../../ui/relative-time';
import { ActionsHeader } from '../../../ui/row-actions';

export function SecretsTable({ secrets, onReplace, onDelete }: { secrets: Secret[]; onReplace: (secret: Secret) => void; onDelete: (secret: Secret) => void }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Used by</th>
            <th scope="col">Updated</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {secrets.map((secret) => (
            <tr key={secret.name}>
              <td>
                <code>{secret.name}</code> {secret.has_preview_value && <span className="badge">preview value</span>}
              </td>
              <td>{secret.description ?? <span className="muted">—</span>}</td>
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
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
