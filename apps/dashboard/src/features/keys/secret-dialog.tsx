import type { CreatedApiKey } from '../../api/types';
import { Dialog } from '../../ui/dialog';
import { COPY_MESSAGES, useCopy } from '../../ui/use-copy';

/** The new secret, shown this once; closing the dialog drops it from the page. */
export function SecretDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const { outcome, copy } = useCopy();
  return (
    <Dialog
      title={`Key ${created.key_data.name} created`}
      onClose={onClose}
      footer={
        <button type="button" className="button secondary" onClick={() => void copy(created.key)}>
          Copy key
        </button>
      }
    >
      <p className="warning">Copy this key now: it will not be shown again. Only its hash is stored.</p>
      <pre className="secret" aria-label="API key">
        {created.key}
      </pre>
      {/* Announced where the user is: inside the dialog. */}
      {outcome && (
        <p className="muted" role="status">
          {COPY_MESSAGES[outcome]}
        </p>
      )}
    </Dialog>
  );
}
