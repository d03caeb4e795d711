import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type ApiError, isApiError } from '../../api/api-error';
import { useEndpoints } from '../../api/endpoints';
import { useDeleteTable } from '../../api/tables';
import type { DataTable } from '../../api/types';
import { useAnnounce } from '../../ui/announcer';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field } from '../../ui/field';
import { liveEndpointsUsing } from './tables-in-flows';

/**
 * `Delete table`: the user types the table's name; the dialog names the live endpoints that use it
 * (their table blocks then fail). When the server knows of more (409 `table_in_use`), it says so
 * and a second Delete deletes anyway.
 */
export function DeleteTableDialog({ projectId, table, onClose }: { projectId: string; table: DataTable; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const endpoints = useEndpoints(projectId);
  const users = liveEndpointsUsing(endpoints.data ?? [], table.name);
  const remove = useDeleteTable(projectId, table.id);
  const inUse = isApiError(remove.error) && remove.error.code === 'table_in_use' ? remove.error : null;
  const navigate = useNavigate();
  const announce = useAnnounce();
  const confirm = () =>
    remove.mutate(users.length > 0 || inUse !== null, {
      onSuccess: () => {
        announce(`Table ${table.name} deleted`);
        void navigate(`/projects/${projectId}/data`, { replace: true });
      },
    });
  return (
    <ConfirmDialog
      title={`Delete table ${table.name}?`}
      onConfirm={confirm}
      onCancel={onClose}
      busy={remove.isPending}
      error={inUse ? undefined : remove.error}
      canConfirm={typed === table.name}
    >
      <p>Its {table.row_count === 1 ? 'row goes' : `${table.row_count} rows go`} with it. This cannot be undone. Type the table name to confirm.</p>
      {users.length > 0 && (
        <div className="warning">
          Live endpoints use it and will answer errors: {users.map((endpoint) => `${endpoint.name} (${endpoint.method} ${endpoint.path})`).join(', ')}.
        </div>
      )}
      {inUse && (
        <p className="warning" role="alert">
          Live endpoints use it: {inUseBy(inUse)}. Delete again to delete it anyway; their table blocks then fail.
        </p>
      )}
      <Field label="Table name" value={typed} autoComplete="off" spellCheck={false} onChange={(event) => setTyped(event.target.value)} hint={`Type ${table.name}`} />
    </ConfirmDialog>
  );
}

/** The endpoints a `table_in_use` answer names (`details` paths "POST /orders"), else its message. */
const inUseBy = (error: ApiError): string => [...new Set(error.details.map((detail) => detail.path))].join(', ') || error.message;
