import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { useCreateFunction } from '../../api/functions';
import { useAnnounce } from '../../ui/announcer';
import { Dialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { FormError } from '../../ui/form-error';

/** A new function's flow: its base settings block, then Return (every path of a function ends with one). */
const STARTER_FLOW = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'return', type: 'return_value', position: { x: 300, y: 0 }, config: { value: null } },
  ],
  edges: [{ id: 'start-return', source: 'start', target: 'return' }],
};

/** `New function`: its name and description; creating it opens its Workshop. */
export function NewFunctionDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);
  const create = useCreateFunction(projectId);
  const announce = useAnnounce();
  const navigate = useNavigate();
  const missing = tried && name.trim() === '' ? 'Give the function a name.' : null;

  const submit = () => {
    setTried(true);
    if (name.trim() === '') return;
    create.mutate(
      { name: name.trim(), description: description.trim(), inputs: [], flow: STARTER_FLOW },
      {
        onSuccess: (fn) => {
          announce(`Function ${fn.name} created`);
          void navigate(`/projects/${projectId}/functions/${fn.id}`);
        },
      },
    );
  };

  return (
    <Dialog
      title="New function"
      onClose={onClose}
      unsaved={name.trim() !== '' || description.trim() !== ''}
      footer={
        <button type="submit" form="new-function" className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create function'}
        </button>
      }
    >
      <form
        id="new-function"
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field
          label="Function name"
          value={name}
          autoComplete="off"
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
          error={missing ?? (isApiError(create.error) ? create.error.fieldMessage('name') : undefined)}
          hint="Call Function lists functions by this name, e.g. Price with tax"
        />
        <Field label="Description" value={description} autoComplete="off" onChange={(event) => setDescription(event.target.value)} hint="Optional: what it does and returns" />
        {isApiError(create.error) && create.error.fieldMessage('name') ? null : <FormError error={create.error} />}
      </form>
    </Dialog>
  );
}
