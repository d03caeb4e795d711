import { useState } from 'react';
import type { CreatedApiKey } from '../../api/types';
import { Dialog } from '../../ui/dialog';

/** The new secret, shown this once; closing the dialog drops it from the page. */
export function SecretDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Dialog
      title={`Key ${created.key_data.name} created`}
      onClose={onClose}
      footer={
        <button type="button" className="button secondary" onClick={() => void copy()}>
          Copy key
        </button>
      }
    >
      <p className="warning">Copy this key now: it will not be shown again. Only its hash is stored.</p>
      <pre className="secret" aria-label="API key">
        {created.key}
      </pre>
      {copied && <p className="muted">{copied === 'yes' ? 'Copied to the clipboard.' : 'Copying failed: select the key and copy it yourself.'}</p>}
    </Dialog>
  );
}
