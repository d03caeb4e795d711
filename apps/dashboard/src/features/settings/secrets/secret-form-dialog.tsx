import { type FormEvent, useState } from 'react';
import { errorMessage, isApiError } from '../../../api/api-error';
import { usePutSecret } from '../../../api/secrets';
import type { Secret } from '../../../api/types';
import { useAnnounce } from '../../../ui/announcer';
import { Dialog } from '../../../ui/dialog';
import { Field } from '../../../ui/field';

/** The control plane's rule (`{secrets.NAME}`), checked here first so a bad name is reported beside the field. */
const NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const NAME_RULE = 'Use A–Z, 0–9 and _, starting with a letter (at most 64 characters), e.g. API_TOKEN.';

/**
 * `Add secret` (name free) or `Replace secret NAME` (name fixed): the fields start empty, as a
 * value is never shown again. An empty Preview value keeps the stored one when replacing.
 */
export function SecretFormDialog({ projectId, replacing, onClose }: { projectId: string; replacing: Secret | null; onClose: () => void }) {
  const [name, setName] = useState(replacing?.name ?? '');
  const [value, setValue] = useState('');
  const [previewValue, setPreviewValue] = useState('');
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);
  const put = usePutSecret(projectId);
  const announce = useAnnounce();
  const problems = isApiError(put.error) ? put.error : null;
  const nameError = tried && !NAME.test(name) ? NAME_RULE : (problems?.fieldMessage('name') ?? null);
  const valueError = tried && value === '' ? 'Enter the value.' : (problems?.fieldMessage('value') ?? null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!NAME.test(name) || value === '') return;
    const body = {
      value,
      ...(previewValue !== '' ? { preview_value: previewValue } : {}),
      ...(description.trim() !== '' ? { description: description.trim() } : {}),
    };
    put.mutate(
      { name, body },
      {
        onSuccess: () => {
          announce(replacing ? `Secret ${name} replaced` : `Secret ${name} saved`);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      title={replacing ? `Replace secret ${replacing.name}` : 'Add secret'}
      onClose={onClose}
      footer={
        <button type="submit" form="secret-form" className="button" disabled={put.isPending}>
          {put.isPending ? 'Saving…' : 'Save secret'}
        </button>
      }
    >
      <form id="secret-form" className="stack" onSubmit={submit} noValidate>
        <Field
          label="Name"
          value={name}
          readOnly={replacing !== null}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setName(event.target.value.toUpperCase())}
          error={nameError}
          hint={replacing ? undefined : 'Flows read it as {secrets.NAME}.'}
        />
        <Field label="Value" type="password" autoComplete="new-password" value={value} onChange={(event) => setValue(event.target.value)} error={valueError} />
        <Field
          label="Preview value"
          type="password"
          autoComplete="new-password"
          value={previewValue}
          onChange={(event) => setPreviewValue(event.target.value)}
          error={problems?.fieldMessage('preview_value') ?? null}
          hint={replacing?.has_preview_value ? 'Optional: leave empty to keep the stored preview value.' : 'Optional: used on the preview address instead of the value.'}
        />
        <Field label="Description" value={description} onChange={(event) => setDescription(event.target.value)} error={problems?.fieldMessage('description') ?? null} />
        <p className="muted">Values are stored encrypted and never shown again, not even here.</p>
        {put.error && !problems?.details.length ? (
          <p className="field-error" role="alert">
            {errorMessage(put.error)}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
