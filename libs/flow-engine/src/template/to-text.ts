/**
 * How a value reads inside text: strings as they are, numbers and booleans in their JSON form,
 * objects and lists as JSON, and a missing value (null) as nothing at all — "Hello {params.name}"
 * without a name reads "Hello ", not "Hello null".
 */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
