import { type FormEvent, useEffect, useEffectEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { useCreateProject } from '../../api/projects';
import { useAnnounce } from '../../ui/announcer';
import { Field } from '../../ui/field';
import { useSubdomainCheck } from './use-subdomain-check';
import { FormError } from '../../ui/form-error';

/** A subdomain suggestion from the name: "My Shop!" → "my-shop". */
const suggest = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+|-+$/g, '')
    .slice(0, 63);

export function NewProjectForm({ onCancel }: { onCancel: () => void }) {
  const [name, setName] = useState('');
  const [subdomain, setSubdomain] = useState('');
  const [touched, setTouched] = useState(false);
  const create = useCreateProject();
  const announce = useAnnounce();
  const navigate = useNavigate();
  const check = useSubdomainCheck(subdomain);
  const serverError = isApiError(create.error) ? create.error : null;
  // Enter right after typing the subdomain arrives while its check is still out: the submit
  // waits for the answer instead of being dropped (the button stays enabled meanwhile).
  const [queued, setQueued] = useState(false);

  const send = () =>
    create.mutate(
      { name: name.trim(), subdomain: subdomain.trim().toLowerCase() },
      {
        onSuccess: (project) => {
          announce(`Project ${project.name} created`);
          void navigate(`/projects/${project.id}/endpoints`);
        },
      },
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    if (check.checking) setQueued(true);
    else if (!check.blocking) send();
  };

  // A submit queued while the subdomain was being checked goes out once the check is in.
  const sendQueued = useEffectEvent(() => {
    setQueued(false);
    if (!check.blocking && name.trim()) send();
  });
  useEffect(() => {
    if (queued && !check.checking) sendQueued();
  }, [queued, check.checking]);

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-project-title">
      <h2 id="new-project-title">New project</h2>
      <Field
        label="Project name"
        value={name}
        required
        maxLength={100}
        autoFocus
        onChange={(e) => {
          setName(e.target.value);
          if (!touched) setSubdomain(suggest(e.target.value));
        }}
        error={serverError?.fieldMessage('name')}
      />
      <Field
        label="Subdomain"
        value={subdomain}
        required
        spellCheck={false}
        autoCapitalize="off"
        onChange={(e) => {
          setTouched(true);
          setSubdomain(e.target.value);
        }}
        error={check.error ?? serverError?.fieldMessage('subdomain')}
        status={check.status}
        hint="The first part of the address clients call: lowercase letters, digits and hyphens, starting with a letter."
      />
      <FormError error={serverError?.details.length ? null : create.error} />
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button" disabled={create.isPending || queued || (check.blocking && !check.checking) || !name.trim()}>
          {create.isPending || queued ? 'Creating…' : 'Create project'}
        </button>
      </div>
    </form>
  );
}
