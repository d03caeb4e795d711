import type { ReactNode } from 'react';
import type { Integration } from '../../api/types';
import { Field } from '../../ui/field';

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
        status={integration ? `Saved: ${integration.api_key_masked}. Type a new key to replace it.` : 'Not configured'}
        error={apiKeyError}
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
