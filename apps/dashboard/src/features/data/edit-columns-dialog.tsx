import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../../api/api-error';
import { useUpdateTable } from '../../api/tables';
import type { DataTable } from '../../api/types';
import { useAnnounce } from '../../ui/announcer';
import { Dialog } from '../../ui/dialog';
import { columnProblems, columnsPayload, type ColumnDraft, draftsOf } from './column-drafts';
import { ColumnEditor } from './column-editor';
import { serverColumnProblems } from './server-problems';

/**
 * `Edit columns`: the column list of `New table` over the table's columns. A renamed column keeps
 * its data; a removed one loses it; a type change converts every row or is refused naming one.
 */
export function EditColumnsDialog({ projectId, table, onClose }: { projectId: string; table: DataTable; onClose: () => void }) {
  const formId = useId();
  const [columns, setColumns] = useState<ColumnDraft[]>(() => draftsOf(table.columns));
  const [tried, setTried] = useState(false);
  const update = useUpdateTable(projectId, table.id);
  const announce = useAnnounce();
  const problems = tried ? columnProblems(columns) : new Map<string, string>();
  const removed = table.columns.filter((column) => !columns.some((draft) => draft.original === column.name));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (columnProblems(columns).size > 0) return;
    update.mutate(
      { columns: columnsPayload(columns) },
      {
        onSuccess: () => {
          announce('Columns saved');
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      title="Edit columns"
      onClose={onClose}
      wide
      footer={
        <button type="submit" form={formId} className="button" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save columns'}
        </button>
      }
    >
      <form id={formId} className="stack" onSubmit={submit} noValidate>
        <ColumnEditor columns={columns} onChange={setColumns} problems={new Map([...serverColumnProblems(update.error, columns), ...problems])} />
        {removed.length > 0 && <p className="warning">Removing {removed.map((column) => column.name).join(', ')} deletes {removed.length === 1 ? 'its' : 'their'} values in every row.</p>}
        {update.error ? (
          <p className="form-error" role="alert">
            {errorMessage(update.error)}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
