import { TEXT_ENCODERS, TEXT_ENCODINGS } from '../text-encoders';
import { MIN_MASKED_LENGTH } from './secret-rules';

/** One secret's current values (live and preview); null or short values are not masked. */
export interface MaskedSecret {
  name: string;
  values: ReadonlyArray<string | null | undefined>;
}

/** The value as it reads inside a JSON string (`"` and `\` escaped): a message quoting it with JSON.stringify. */
const jsonEscaped = (value: string): string => JSON.stringify(value).slice(1, -1);

/**
 * The forms a value takes on its way into a message: as written, JSON-escaped (a message that
 * quotes it in a JSON string), lower-cased (a host name in a DNS error), percent-encoded (a
 * secret in a URL that an error quotes), every form Encode Text gives the value alone (and
 * unpadded base64). A value encoded together with other text (`user:{secrets.X}` in base64)
 * has other bytes and is not found; docs/secrets-and-preview.md says what masking cannot catch.
 */
function formsOf(value: string): string[] {
  const encoded = TEXT_ENCODINGS.map((encoding) => TEXT_ENCODERS[encoding](value));
  const forms = [value, value.toLowerCase(), encodeURIComponent(value), TEXT_ENCODERS.base64(value).replace(/=+$/, ''), ...encoded];
  // Any of them quoted in a JSON string (a data error's message); most have nothing to escape.
  return [...forms, ...forms.map(jsonEscaped)];
}

/**
 * Replaces every occurrence of a project's current secret values by `[secret:NAME]` in what
 * Flowgate shows about a run (traces, error messages, log entries, diagnostics). Built once per
 * change of the project's secrets; `SecretMasker.of` gives null when there is nothing to mask,
 * so the callers' no-secrets path is a null check.
 */
export class SecretMasker {
  /**
   * Every form to find, by its first MIN_MASKED_LENGTH characters, longest first (so a value
   * that contains another is replaced whole). One scan of the text, a Map read per position: a
   * single regular expression of every form grew past what V8 compiles (100 secrets of 8 KiB
   * give tens of megabytes of forms: "Regular expression too large", and a heap of hundreds of
   * megabytes before that; `secret-masker.spec.ts`).
   */
  private readonly byStart = new Map<string, Array<{ form: string; name: string }>>();
  /**
   * The first two characters of every form, as one number: most positions of a text start no
   * form, and a Set of numbers tells so without cutting a string out of the text (a request body
   * of 4 KiB is masked ~4× faster).
   */
  private readonly pairs = new Set<number>();
  /** Characters of the longest form looked for: a text cut this far past a point holds whole every value that starts before it. */
  readonly longestForm: number = 0;

  private constructor(names: Map<string, string>) {
    for (const [form, name] of names) {
      if (form.length > this.longestForm) this.longestForm = form.length;
      this.pairs.add(pairAt(form, 0));
      const start = form.slice(0, MIN_MASKED_LENGTH);
      const list = this.byStart.get(start);
      if (list === undefined) this.byStart.set(start, [{ form, name }]);
      else list.push({ form, name });
    }
    for (const list of this.byStart.values()) list.sort((a, b) => b.form.length - a.form.length);
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

  /**
   * `text` with every value replaced by `[secret:NAME]`. With `limit`, only the text before that
   * position is returned, masked — a value that starts before it is replaced whole (the caller
   * passes at least `longestForm` characters past the limit, so such a value is there to find).
   */
  text(text: string, limit = text.length): string {
    let out = '';
    let copied = 0;
    let at = 0;
    while (at < limit && at + MIN_MASKED_LENGTH <= text.length) {
      if (!this.pairs.has(pairAt(text, at))) {
        at += 1;
        continue;
      }
      const candidates = this.byStart.get(text.slice(at, at + MIN_MASKED_LENGTH));
      const found = candidates?.find(({ form }) => text.startsWith(form, at));
      if (found === undefined) {
        at += 1;
        continue;
      }
      out += `${text.slice(copied, at)}[secret:${found.name}]`;
      at += found.form.length;
      copied = at;
    }
    if (limit >= text.length) return copied === 0 ? text : out + text.slice(copied);
    return copied === 0 ? text.slice(0, limit) : out + text.slice(copied, Math.max(copied, limit));
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

/** The UTF-16 code units at `at` and `at + 1` as one number. */
const pairAt = (text: string, at: number): number => text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1);

/** `masker.text(text)`, or `text` as is when the project has no secrets. */
export const maskText = (masker: SecretMasker | null, text: string): string => (masker === null ? text : masker.text(text));

/** Longest error message Flowgate shows (a caller's answer, a log entry, a test run's trace). */
export const MAX_MESSAGE_CHARS = 300;

/**
 * The one way a message that may quote a value leaves Flowgate: the project's secret values
 * masked first (in every form above), then cut to MAX_MESSAGE_CHARS. Messages are built with
 * the values they quote in full, so a cut never leaves part of a value where the masker
 * cannot see it.
 */
export function safeMessage(masker: SecretMasker | null, message: string): string {
  const masked = masker === null ? message : masker.text(message);
  if (masked.length <= MAX_MESSAGE_CHARS) return masked;
  let end = MAX_MESSAGE_CHARS - 1;
  // Never end on the first half of a surrogate pair.
  if (/[\ud800-\udbff]/.test(masked[end - 1]!)) end--;
  return `${masked.slice(0, end)}…`;
}
