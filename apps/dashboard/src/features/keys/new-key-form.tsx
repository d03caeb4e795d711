import { type FormEvent, useId, useState } from 'react';
import { isApiError } from '../../api/api-error';
import { useCreateApiKey } from '../../api/api-keys';
import type { CreatedApiKey } from '../../api/types';
import { Field } from '../../ui/field';
import { FormError } from '../../ui/form-error';

/** Name (≤ 50), Rate limit (per minute, default 60), Permission; the created key goes to `onCreated` (shown once). */
export function NewKeyForm({ projectId, onCreated }: { projectId: string; onCreated: (created: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const [rate, setRate] = useState('60');
  const [permission, setPermission] = useState<'user' | 'admin'>('user');
  const create = useCreateApiKey(projectId);
  const permissionId = useId();
  const problems = isApiError(create.error) ? create.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), ratelimit_min: Number(rate), permission },
      {
        onSuccess: (created) => {
          setName('');
          create.reset();
          onCreated(created);
        },
      },
    );
  };

  return (
    <form className="card key-form" onSubmit={submit} aria-labelledby="new-key-title">
      <h2 id="new-key-title">Create a key</h2>
      <div className="key-form-row">
        <Field label="Name" value={name} maxLength={50} required onChange={(e) => setName(e.target.value)} error={problems?.fieldMessage('name')} />
        <Field
          label="Rate limit"
          type="number"
          min={1}
          step={1}
          value={rate}
          required
          onChange={(e) => setRate(e.target.value)}
          hint="Requests per minute"
          error={problems?.fieldMessage('ratelimit_min')}
        />
        <div className="field">
          <label htmlFor={permissionId}>Permission</label>
          <select id={permissionId} value={permission} onChange={(e) => setPermission(e.target.value as 'user' | 'admin')}>
            <option value="user">user</option>
            <option value="admin">admin</option>
          </select>
        </div>
        <button type="submit" className="button" disabled={create.isPending || !name.trim()}>
          {create.isPending ? 'Adding…' : 'Add'}
        </button>
      </div>
      <FormError error={problems?.details.length ? null : create.error} />
    </form>
  );
}
