import type { JsonValue } from '@flowgate/flow-engine';

/**
 * A `value` field is typed as text: what parses as JSON other than a string (42, true, null,
 * {"a":1}, [1,2]) keeps its JSON type, everything else is a text template ("Hello {params.name}").
 */
export function parseValueText(text: string): JsonValue {
  const trimmed = text.trim();
  if (trimmed === '' || !/^[-\d[{tfn]/.test(trimmed)) return text;
  try {
    const parsed = JSON.parse(trimmed) as JsonValue;
    return typeof parsed === 'string' ? text : parsed;
  } catch {
    return text;
  }
}

export const formatValue = (value: JsonValue | undefined): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
