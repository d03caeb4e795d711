import type { ReactNode } from 'react';
import type { Integration } from '../../api/types';
import { Field } from '../../ui/field';

/** The stored secret no longer decrypts (the server's encryption key changed); its blocks are skipped meanwhile. */
const NEEDS_NEW_SECRET = 'This key can no longer be read (the server’s encryption key changed), so the integration is off. Type the key again and save.';

/**
 * One integration (`Text generation`, `Email`) as a named group: `API key` is write-only — empty
 * after saving, the stored secret shown masked — and `Remove` deletes the integration.
 */
export function IntegrationGroup({
  title,
  description,
  integration,
  apiKey,
  onApiKey,
  apiKeyError,
  onRemove,
  removing,
  children,
}: {
  title: string;
  description: string;
  integration: Integration | undefined;
  apiKey: string;
  onApiKey: (value: string) => void;
  apiKeyError?: string;
  onRemove: () => void;
  removing: boolean;
  children?: ReactNode;
}) {
  return (
    <fieldset className="card integration">
      <legend>{title}</legend>
      <p className="muted">{description}</p>
      <Field
        label="API key"
        type="password"
        autoComplete="off"
        value={apiKey}
        onChange={(e) => onApiKey(e.target.value)}
        placeholder={integration ? integration.api_key_masked : 'Not configured'}
        status={!integration ? 'Not configured' : integration.needs_new_secret ? undefined : `Saved: ${integration.api_key_masked}. Type a new key to replace it.`}
        error={apiKeyError ?? (integration?.needs_new_secret ? NEEDS_NEW_SECRET : undefined)}
      />
      {children}
      <div>
        <button type="button" className="button secondary" onClick={onRemove} disabled={!integration || removing}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}
