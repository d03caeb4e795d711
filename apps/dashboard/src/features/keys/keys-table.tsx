import type { ApiKey } from '../../api/types';
import { ListTable } from '../../ui/list-table';
import { RelativeTime } from '../../ui/relative-time';
import { DeleteRowButton } from '../../ui/row-actions';

export function KeysTable({ keys, onDelete }: { keys: ApiKey[]; onDelete: (key: ApiKey) => void }) {
  return (
    <ListTable
      columns={['Name', 'Rate limit', 'Permission', 'Last used', 'Created']}
      actions
      items={keys}
      rowKey={(key) => key.id}
      cells={(key) => (
        <>
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
        </>
      )}
    />
  );
}
