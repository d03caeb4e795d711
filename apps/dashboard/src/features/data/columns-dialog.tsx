import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Dialog } from '../../ui/dialog';
import { columnProblems, columnsPayload, type ColumnDraft } from './column-drafts';
import { ColumnEditor } from './column-editor';
import { serverColumnProblems } from './server-problems';
import { FormError } from '../../ui/form-error';

/**
 * The form of `New table` and `Edit columns`: the column editor in a wide dialog with one submit
 * button. Problems show once it was submitted; `onSubmit` gets the columns as the API takes them,
 * only when they and the other fields (`otherProblem`) are valid. `fields` go above the columns,
 * `notice` under them; the server's problems are put on the columns they name.
 */
export function ColumnsDialog({
  title,
  submitLabel,
  busyLabel,
  initialColumns,
  mutation,
  onSubmit,
  onClose,
  otherProblem,
  fields,
  notice,
  fieldsEdited = false,
}: {
  title: string;
  submitLabel: string;
  busyLabel: string;
  initialColumns: () => ColumnDraft[];
  mutation: { isPending: boolean; error: unknown };
  onSubmit: (columns: ReturnType<typeof columnsPayload>) => void;
  onClose: () => void;
  otherProblem?: () => boolean;
  fields?: (tried: boolean) => ReactNode;
  notice?: (columns: ColumnDraft[]) => ReactNode;
  /** Whether `fields` hold something typed (closing then asks first, as edited columns do). */
  fieldsEdited?: boolean;
}) {
  const formId = useId();
  const [start] = useState<ColumnDraft[]>(initialColumns);
  const [columns, setColumns] = useState<ColumnDraft[]>(start);
  const [tried, setTried] = useState(false);
  const problems = tried ? columnProblems(columns) : new Map<string, string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (otherProblem?.() || columnProblems(columns).size > 0) return;
    onSubmit(columnsPayload(columns));
  };

  return (
    <Dialog
      title={title}
      onClose={onClose}
      unsaved={fieldsEdited || columns !== start}
      wide
      footer={
        <button type="submit" form={formId} className="button" disabled={mutation.isPending}>
          {mutation.isPending ? busyLabel : submitLabel}
        </button>
      }
    >
      <form id={formId} className="stack" onSubmit={submit} noValidate>
        {fields?.(tried)}
        <ColumnEditor columns={columns} onChange={setColumns} problems={new Map([...serverColumnProblems(mutation.error, columns), ...problems])} />
        {notice?.(columns)}
        <FormError error={mutation.error} />
      </form>
    </Dialog>
  );
}
