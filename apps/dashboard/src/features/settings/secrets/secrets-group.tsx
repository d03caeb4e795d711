import { useState } from 'react';
import { useDeleteSecret, useSecrets } from '../../../api/secrets';
import type { Secret } from '../../../api/types';
import { useAnnounce } from '../../../ui/announcer';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { ListState } from '../../../ui/states';
import { SecretFormDialog } from './secret-form-dialog';
import { SecretsTable } from './secrets-table';

type Editing = { mode: 'add' } | { mode: 'replace'; secret: Secret };

/** The `Secrets` group of Settings: names, never values; add, replace and delete. */
export function SecretsGroup({ projectId }: { projectId: string }) {
  const secrets = useSecrets(projectId);
  const remove = useDeleteSecret(projectId);
  const announce = useAnnounce();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Secret | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    // The dialog named the live endpoints that read it: confirming deletes anyway.
    remove.mutate(
      { name: deleting.name, force: deleting.used_by.length > 0 },
      {
        onSuccess: () => {
          announce(`Secret ${deleting.name} deleted`);
          setDeleting(null);
        },
      },
    );
  };

  return (
    <section className="card" role="group" aria-labelledby="secrets-title">
      <div className="page-header">
        <div>
          <h2 id="secrets-title">Secrets</h2>
          <p className="muted">
            Flows read a secret as <code>{'{secrets.NAME}'}</code> in any field, so a token never sits in a flow, an export or a log. Values are
            masked as <code>[secret:NAME]</code> wherever Flowgate shows what a flow did.
          </p>
        </div>
        <button type="button" className="button" onClick={() => setEditing({ mode: 'add' })}>
          Add secret
        </button>
      </div>
      <ListState query={secrets} label="Loading secrets…" emptyTitle="No secrets yet" emptyHint="Add one for each token or password your flows send to other services.">
        {(items) => (
          <SecretsTable
            secrets={items}
            onReplace={(secret) => setEditing({ mode: 'replace', secret })}
            onDelete={(secret) => {
              remove.reset();
              setDeleting(secret);
            }}
          />
        )}
      </ListState>
      {editing && <SecretFormDialog projectId={projectId} replacing={editing.mode === 'replace' ? editing.secret : null} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog title={`Delete secret ${deleting.name}?`} onConfirm={confirmDelete} onCancel={() => setDeleting(null)} busy={remove.isPending} error={remove.error}>
          {deleting.used_by.length > 0 ? (
            <p>
              Live endpoints read it: <strong>{deleting.used_by.map((user) => user.name).join(', ')}</strong>. Their requests will fail with a
              500 naming the secret until you add it again or change them.
            </p>
          ) : (
            <p>No live endpoint reads it. Flows that mention it can no longer be deployed. This cannot be undone.</p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
