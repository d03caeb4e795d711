import type { SecretBox } from '@flowgate/platform';
import type { ProjectServingState } from './published-project.builder';

type Kind = ProjectServingState['integrations'][number]['kind'];

/**
 * Key rotation, done when a project is published (every project at start-up, then on each
 * change and reconcile): a secret that only FLOWGATE_ENCRYPTION_KEY_PREVIOUS opens is sealed
 * again with the current key, in PostgreSQL, inside the publishing transaction. `replace`
 * writes only when the row still holds the old text, so a concurrent Save wins.
 */
export async function resealStaleSecrets(
  secrets: SecretBox,
  state: ProjectServingState,
  replace: (kind: Kind, from: string, to: string) => Promise<void>,
): Promise<void> {
  for (const integration of state.integrations) {
    const opened = secrets.open(integration.secretEncrypted);
    if (!opened?.sealedWithPreviousKey) continue;
    const resealed = secrets.encrypt(opened.plaintext);
    await replace(integration.kind, integration.secretEncrypted, resealed);
    integration.secretEncrypted = resealed;
  }
}

/**
 * The same rotation for the project's secrets (value and preview value): `replace` is a
 * compare-and-set, as for the integrations.
 */
export async function resealStaleProjectSecrets(
  secrets: SecretBox,
  state: ProjectServingState,
  replace: (secretId: string, column: 'value' | 'preview_value', from: string, to: string) => Promise<void>,
): Promise<void> {
  for (const secret of state.secrets) {
    for (const column of ['value', 'preview_value'] as const) {
      const stored = column === 'value' ? secret.valueEncrypted : secret.previewValueEncrypted;
      const opened = stored === null ? null : secrets.open(stored);
      if (stored === null || !opened?.sealedWithPreviousKey) continue;
      const resealed = secrets.encrypt(opened.plaintext);
      await replace(secret.id, column, stored, resealed);
      if (column === 'value') secret.valueEncrypted = resealed;
      else secret.previewValueEncrypted = resealed;
    }
  }
}

/**
 * The secret as the gateways receive it: sealed afresh (new IV) with the current key, or null
 * when no key opens it — the integration is then published as not configured, and its blocks
 * are skipped, instead of one bad row stopping the publication (and the control plane's start).
 */
export function sealForGateways(secrets: SecretBox, stored: string): string | null {
  const opened = secrets.open(stored);
  return opened ? secrets.encrypt(opened.plaintext) : null;
}
