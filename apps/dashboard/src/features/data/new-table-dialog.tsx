import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage, isApiError } from '../../api/api-error';
import { useCreateTable } from '../../api/tables';
import { useAnnounce } from '../../ui/announcer';
import { Dialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { blankColumn, columnProblems, columnsPayload, type ColumnDraft, nameProblem } from './column-drafts';
import { ColumnEditor } from './column-editor';
import { serverColumnProblems } from './server-problems';

/** `New table`: its name and columns; creating it opens its page. */
export function NewTableDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const formId = useId();
  const [name, setName] = useState('');
  const [columns, setColumns] = useState<ColumnDraft[]>(() => [blankColumn()]);
  const [tried, setTried] = useState(false);
  const create = useCreateTable(projectId);
  const announce = useAnnounce();
  const navigate = useNavigate();

  const tableProblem = tried ? nameProblem(name, 'Table') : null;
  const problems = tried ? columnProblems(columns) : new Map<string, string>();
  const server = serverColumnProblems(create.error, columns);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (nameProblem(name, 'Table') || columnProblems(columns).size > 0) return;
    create.mutate(
      { name: name.trim(), columns: columnsPayload(columns) },
      {
        onSuccess: (table) => {
          announce(`Table ${table.name} created`);
          void navigate(`/projects/${projectId}/data/${table.id}`);
        },
      },
    );
  };

  return (
    <Dialog
      title="New table"
      onClose={onClose}
      wide
      footer={
        <button type="submit" form={formId} className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create table'}
        </button>
      }
    >
      <form id={formId} className="stack" onSubmit={submit} noValidate>
        <Field
          label="Table name"
          value={name}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setName(event.target.value)}
          error={tableProblem ?? (isApiError(create.error) ? create.error.fieldMessage('name') : undefined)}
          hint="Flows name the table this way, e.g. orders"
        />
        <ColumnEditor columns={columns} onChange={setColumns} problems={new Map([...server, ...problems])} />
        {create.error ? (
          <p className="form-error" role="alert">
            {errorMessage(create.error)}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
