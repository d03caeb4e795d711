import { Link } from 'react-router';
import type { FlowFunction } from '../../api/types';
import { ListTable, NoValue } from '../../ui/list-table';
import { RelativeTime } from '../../ui/relative-time';
import { DeleteRowButton } from '../../ui/row-actions';
import { StatusBadge } from '../endpoints/status-badge';

/** "amount (number), currency (string, optional)". */
export const inputsSummary = (inputs: FlowFunction['inputs']): string =>
  inputs.map((input) => `${input.name} (${input.type}${input.required ? '' : ', optional'})`).join(', ');

export function FunctionsTable({ projectId, functions, onDelete }: { projectId: string; functions: FlowFunction[]; onDelete: (fn: FlowFunction) => void }) {
  return (
    <ListTable
      columns={['Name', 'Inputs', 'Status', 'Updated']}
      actions
      items={functions}
      rowKey={(fn) => fn.id}
      cells={(fn) => (
        <>
          <td className="name">
            <Link to={`/projects/${projectId}/functions/${fn.id}`}>{fn.name}</Link>
            {fn.description && <span className="muted cell-note">{fn.description}</span>}
          </td>
          <td>{fn.inputs.length > 0 ? inputsSummary(fn.inputs) : <NoValue />}</td>
          <td>
            <StatusBadge resource={fn} />
          </td>
          <td>
            <RelativeTime iso={fn.updated_at} />
          </td>
          <DeleteRowButton label={`Delete function ${fn.name}`} onClick={() => onDelete(fn)} />
        </>
      )}
    />
  );
}
