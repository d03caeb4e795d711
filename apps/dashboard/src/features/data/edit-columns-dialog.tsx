import { useUpdateTable } from '../../api/tables';
import type { DataTable } from '../../api/types';
import { useAnnounce } from '../../ui/announcer';
import { draftsOf } from './column-drafts';
import { ColumnsDialog } from './columns-dialog';

/**
 * `Edit columns`: the column list of `New table` over the table's columns. A renamed column keeps
 * its data; a removed one loses it; a type change converts every row or is refused naming one.
 */
export function EditColumnsDialog({ projectId, table, onClose }: { projectId: string; table: DataTable; onClose: () => void }) {
  const update = useUpdateTable(projectId, table.id);
  const announce = useAnnounce();

  return (
    <ColumnsDialog
      title="Edit columns"
      submitLabel="Save columns"
      busyLabel="Saving…"
      initialColumns={() => draftsOf(table.columns)}
      mutation={update}
      onClose={onClose}
      onSubmit={(columns) =>
        update.mutate(
          { columns },
          {
            onSuccess: () => {
              announce('Columns saved');
              onClose();
            },
          },
        )
      }
      notice={(columns) => {
        const removed = table.columns.filter((column) => !columns.some((draft) => draft.original === column.name));
        return removed.length > 0 && <p className="warning">Removing {removed.map((column) => column.name).join(', ')} deletes {removed.length === 1 ? 'its' : 'their'} values in every row.</p>;
      }}
    />
  );
}
