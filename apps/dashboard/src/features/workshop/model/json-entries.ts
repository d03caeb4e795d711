import type { JsonValue } from '@flowgate/flow-engine';
import { formatValue, parseValueText } from './template-value';

/** One row of Respond's body editor. */
export interface Entry {
  key: string;
  value: string;
}

const isObject = (value: JsonValue | undefined): value is Record<string, JsonValue> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The rows of an object body; null when the body is not an object (then only raw JSON edits it). */
export function toEntries(body: JsonValue | undefined): Entry[] | null {
  if (body === undefined) return [];
  if (!isObject(body)) return null;
  return Object.entries(body).map(([key, value]) => ({ key, value: formatValue(value) }));
}

/** Rows without a key are still being typed and are left out; a later row with the same key wins. */
export function fromEntries(entries: readonly Entry[]): Record<string, JsonValue> {
  const body: Record<string, JsonValue> = {};
  for (const { key, value } of entries) if (key !== '') body[key] = parseValueText(value);
  return body;
}

export const formatJson = (body: JsonValue | undefined): string => JSON.stringify(body ?? {}, null, 2);

/** Parses the `Advanced` text; an error message instead of a value when it is not JSON. */
export function parseJson(text: string): { ok: true; value: JsonValue } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
  }
}
