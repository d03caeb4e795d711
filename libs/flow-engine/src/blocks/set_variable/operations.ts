export const SET_OPERATIONS = ['set', 'append', 'increment', 'merge'] as const;
export type SetOperation = (typeof SET_OPERATIONS)[number];

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A number, or numeric text (as a Condition reads it); null otherwise. */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/**
 * The variable's new value after `append`, `increment` or `merge` of `value` into `current`
 * (null when the name holds nothing yet), or why it cannot be done (the end of a sentence
 * starting with the name). Values are never changed in place: the old one may be shared (a
 * loop iteration's scope starts with the values set before the loop).
 */
export function combine(operation: Exclude<SetOperation, 'set'>, current: unknown, value: unknown): { value: unknown } | string {
  switch (operation) {
    case 'append':
      if (current === null || current === undefined) return { value: [value] };
      if (!Array.isArray(current)) return 'is not a list, so Append cannot add to it';
      return { value: [...(current as unknown[]), value] };
    case 'increment': {
      const by = numberOf(value);
      if (by === null) return `cannot be incremented by ${JSON.stringify(value)}: Value must be a number`;
      const base = current === null || current === undefined ? 0 : numberOf(current);
      if (base === null) return 'is not a number, so Increment cannot add to it';
      return { value: base + by };
    }
    case 'merge': {
      if (!isObject(value)) return 'can only merge an object: Value must give one';
      if (current === null || current === undefined) return { value: { ...value } };
      if (!isObject(current)) return 'is not an object, so Merge cannot add to it';
      return { value: Object.assign(Object.create(null) as object, current, value) };
    }
  }
}
