import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { useCreateTable } from '../../api/tables';
import { useAnnounce } from '../../ui/announcer';
import { Field } from '../../ui/field';
import { blankColumn, nameProblem } from './column-drafts';
import { ColumnsDialog } from './columns-dialog';

/** `New table`: its name and columns; creating it opens its page. */
export function NewTableDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const [name, setName] = useState('');
  const create = useCreateTable(projectId);
  const announce = useAnnounce();
  const navigate = useNavigate();

  return (
    <ColumnsDialog
      title="New table"
      submitLabel="Create table"
      busyLabel="Creating…"
      initialColumns={() => [blankColumn()]}
      mutation={create}
      onClose={onClose}
      fieldsEdited={name.trim() !== ''}
      otherProblem={() => nameProblem(name, 'Table') !== null}
      onSubmit={(columns) =>
        create.mutate(
          { name: name.trim(), columns },
          {
            onSuccess: (table) => {
              announce(`Table ${table.name} created`);
              void navigate(`/projects/${projectId}/data/${table.id}`);
            },
          },
        )
      }
      fields={(tried) => (
        <Field
          label="Table name"
          value={name}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setName(event.target.value)}
          error={(tried ? nameProblem(name, 'Table') : null) ?? (isApiError(create.error) ? create.error.fieldMessage('name') : undefined)}
          hint="Flows name the table this way, e.g. orders"
        />
      )}
    />
  );
}
