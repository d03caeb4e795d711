import type { ApiKey } from '../../api/types';
import { RelativeTime } from '../../ui/relative-time';
import { ActionsHeader, DeleteRowButton } from '../../ui/row-actions';

export function KeysTable({ keys, onDelete }: { keys: ApiKey[]; onDelete: (key: ApiKey) => void }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Ratelimit</th>
            <th scope="col">Permission</th>
            <th scope="col">Last Used</th>
            <th scope="col">Created</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>
                <strong>{key.name}</strong> <code className="muted">{key.key_prefix}…</code>
              </td>
              <td>{key.ratelimit_min}/min</td>
              <td>
                <span className={key.permission === 'admin' ? 'badge changed' : 'badge'}>{key.permission}</span>
              </td>
              <td>
                <RelativeTime iso={key.last_used_at} />
              </td>
              <td>
                <RelativeTime iso={key.created_at} />
              </td>
              <DeleteRowButton label={`Delete key ${key.name}`} onClick={() => onDelete(key)} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
