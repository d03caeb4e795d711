import { MAX_JSON_DEPTH } from '@flowgate/contracts';

/** A lone surrogate: half of a pair, without its other half (`"\ud800"` in JSON). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why PostgreSQL cannot store `text` as it is, or null. It refuses NUL in text and jsonb in its
 * own words (which must not reach a caller), and a lone surrogate would be stored as U+FFFD:
 * another value than the one given. Both are refused before any statement is sent.
 */
export function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000), which cannot be stored';
  if (LONE_SURROGATE.test(text)) return 'contains a lone surrogate (half of a UTF-16 pair, such as "\\ud800"), which is not text';
  return null;
}

/**
 * Why a JSON value cannot be stored, or null: a string or key `unstorableText` refuses, or
 * nesting deeper than MAX_JSON_DEPTH (jsonb and every recursive walk after it would fail on
 * it). Walks at most MAX_JSON_DEPTH levels, so a deep value cannot overflow the stack here.
 */
export function unstorableJson(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return unstorableText(value);
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH) return `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = unstorableJson(item, depth + 1);
      if (problem !== null) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = unstorableText(key) ?? unstorableJson(item, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}
