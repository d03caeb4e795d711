import type { PublishedSecret } from '../redis-layout';
import { type MaskedSecret, SecretMasker } from './secret-masker';

/** A project's secret values, opened in memory: what `{secrets.NAME}` reads, and what is masked. */
export interface OpenedSecrets {
  live: ReadonlyMap<string, string>;
  /** The preview value where one is set, else the live value. */
  preview: ReadonlyMap<string, string>;
  /** Masks every value, live and preview; null when the project has none worth masking. */
  masker: SecretMasker | null;
  /** What the masker was built from (plain data, for a thread that builds its own). */
  masked: MaskedSecret[];
}

export const NO_SECRETS: OpenedSecrets = { live: new Map(), preview: new Map(), masker: null, masked: [] };

/**
 * Opens the sealed values with `open` (null: no key opens it). A secret whose value cannot be
 * opened is left out, as if deleted (a flow reading it fails naming it); a preview value that
 * cannot be opened falls back to the live one.
 */
export function openSecrets(list: readonly PublishedSecret[] | undefined, open: (sealed: string) => string | null): OpenedSecrets {
  if (list === undefined || list.length === 0) return NO_SECRETS;
  const live = new Map<string, string>();
  const preview = new Map<string, string>();
  const masked: MaskedSecret[] = [];
  for (const secret of list) {
    const value = open(secret.value_encrypted);
    if (value === null) continue;
    const previewValue = secret.preview_value_encrypted === null ? null : open(secret.preview_value_encrypted);
    live.set(secret.name, value);
    preview.set(secret.name, previewValue ?? value);
    masked.push({ name: secret.name, values: previewValue === null ? [value] : [value, previewValue] });
  }
  return { live, preview, masker: SecretMasker.of(masked), masked };
}
