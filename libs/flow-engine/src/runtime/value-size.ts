/**
 * The size of a value as the limits count it: a text's length, or about the length of a list's
 * or object's JSON (quotes, commas and colons included; a number counts 8, like a typical one).
 * Walks without recursion (a deeply nested body cannot overflow the stack) and stops as soon
 * as the count passes `limit`, so measuring something huge costs no more than the limit.
 */
export function valueSize(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return scalarSize(value);
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && size <= limit) {
    const item = pending.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (item === null || typeof item !== 'object') size += scalarSize(item);
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (let i = 0; i < item.length; i++) pending.push(item[i]);
    } else {
      size += 2;
      for (const key in item) {
        if (!Object.prototype.hasOwnProperty.call(item, key)) continue;
        size += key.length + 4;
        if (size > limit) break;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return size;
}

function scalarSize(value: unknown): number {
  if (value === null || value === undefined) return 4;
  if (typeof value === 'boolean') return 5;
  return 8;
}

/** "1,048,576": limits read better with separators. (Not toLocaleString: ICU costs ~10 µs a call.) */
export function formatCount(count: number): string {
  const digits = String(Math.round(count));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
  return out;
}
