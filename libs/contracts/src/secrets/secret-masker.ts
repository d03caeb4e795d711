import { MIN_MASKED_LENGTH } from './secret-rules';

/** One secret's current values (live and preview); null or short values are not masked. */
export interface MaskedSecret {
  name: string;
  values: ReadonlyArray<string | null | undefined>;
}

const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/**
 * The forms a value commonly takes on its way into a message: as written, percent-encoded (a
 * secret in a URL that an error quotes), and base64 / base64url of the value alone (a block
 * that encoded it). A value encoded together with other text (`user:{secrets.X}` in base64)
 * has other bytes and is not found; docs/secrets-and-preview.md says what masking cannot catch.
 */
function formsOf(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const base64 = btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
  const unpadded = base64.replace(/=+$/, '');
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return [value, encodeURIComponent(value), base64, unpadded, unpadded.replace(/\+/g, '-').replace(/\//g, '_'), hex];
}

/**
 * Replaces every occurrence of a project's current secret values by `[secret:NAME]` in what
 * Flowgate shows about a run (traces, error messages, log entries, diagnostics). Built once per
 * change of the project's secrets; `SecretMasker.of` gives null when there is nothing to mask,
 * so the callers' no-secrets path is a null check.
 */
export class SecretMasker {
  private readonly pattern: RegExp;
  private readonly names: Map<string, string>;

  private constructor(names: Map<string, string>) {
    this.names = names;
    // Longest first, so a value that contains another is replaced whole.
    const alternatives = [...names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = new RegExp(alternatives.join('|'), 'g');
  }

  static of(secrets: Iterable<MaskedSecret>): SecretMasker | null {
    const names = new Map<string, string>();
    for (const { name, values } of secrets) {
      for (const value of values) {
        if (typeof value !== 'string' || value.length < MIN_MASKED_LENGTH) continue;
        for (const form of formsOf(value)) if (form.length >= MIN_MASKED_LENGTH && !names.has(form)) names.set(form, name);
      }
    }
    return names.size === 0 ? null : new SecretMasker(names);
  }

  /** `text` with every value replaced by `[secret:NAME]`. */
  text(text: string): string {
    return text.replace(this.pattern, (found) => `[secret:${this.names.get(found)}]`);
  }

  /** A JSON value with every string (and object key) masked; the input is not changed. */
  value<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    const masked: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(masked, this.text(key), { value: this.walk(item), enumerable: true, writable: true, configurable: true });
    }
    return masked;
  }
}

/** `masker.text(text)`, or `text` as is when the project has no secrets. */
export const maskText = (masker: SecretMasker | null, text: string): string => (masker === null ? text : masker.text(text));
