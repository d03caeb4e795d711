import { useState } from 'react';
import { useApiKeys, useDeleteApiKey } from '../../api/api-keys';
import type { ApiKey, CreatedApiKey } from '../../api/types';
import { useCurrentProject } from '../../ui/use-current-project';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ListState } from '../../ui/states';
import { usePendingDelete } from '../../ui/use-pending-delete';
import { KeysTable } from './keys-table';
import { NewKeyForm } from './new-key-form';
import { SecretDialog } from './secret-dialog';
import { useDocumentTitle } from '../../ui/use-document-title';

/** `/projects/:id/keys` (Authentication): create keys (secret shown once), list and delete them, and how to use one. */
export function KeysPage() {
  const project = useCurrentProject();
  useDocumentTitle('Authentication', project.name);
  const keys = useApiKeys(project.id);
  const remove = useDeleteApiKey(project.id);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const deletion = usePendingDelete<ApiKey>(remove, 'Key');
  const deleting = deletion.pending;

  return (
    <section className="page" aria-labelledby="keys-title">
      <div className="page-header">
        <div>
          <h1 id="keys-title">Authentication</h1>
          <p className="muted">API keys let clients call endpoints that need a key. Each key has its own rate limit.</p>
        </div>
      </div>
      <NewKeyForm projectId={project.id} onCreated={setCreated} />
      <ListState query={keys} label="Loading keys…" emptyTitle="No keys yet" emptyHint="Add a key above: endpoints with authentication user or admin need one.">
        {(items) => <KeysTable keys={items} onDelete={deletion.ask} />}
      </ListState>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Using a key</h2>
        <p className="muted">Send it as a bearer token:</p>
        <pre>{`curl -H "Authorization: Bearer <your key>" ${project.base_url}/your-endpoint`}</pre>
      </section>
      {created && <SecretDialog created={created} onClose={() => setCreated(null)} />}
      {deleting && (
        <ConfirmDialog title={`Delete key ${deleting.name}?`} onConfirm={deletion.confirm} onCancel={deletion.cancel} busy={remove.isPending} error={remove.error}>
          <p>Requests with this key are refused from the next request on. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
