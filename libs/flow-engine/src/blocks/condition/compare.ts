import { hasOwn } from '../../json';
import { asNumber } from '../common/numbers';
import { toText } from '../../template/to-text';

export const CONDITION_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'is_null', 'is_not_null'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Operators that look at the left value only. */
export const UNARY_OPERATORS: ReadonlySet<ConditionOperator> = new Set(['is_null', 'is_not_null']);

const isNull = (value: unknown): boolean => value === null || value === undefined;

/**
 * Equality as a person reads it: numbers and numeric text compare as numbers ("42" = 42,
 * "1.0" = 1), `true`/`false` equal the text "true"/"false", objects and lists compare by
 * content; null equals only null.
 */
export function looselyEqual(left: unknown, right: unknown): boolean {
  if (isNull(left) || isNull(right)) return isNull(left) && isNull(right);
  const leftNumber = asNumber(left);
  const rightNumber = asNumber(right);
  if (leftNumber !== null && rightNumber !== null) return leftNumber === rightNumber;
  if (typeof left === 'object' || typeof right === 'object') {
    return typeof left === 'object' && typeof right === 'object' && JSON.stringify(left) === JSON.stringify(right);
  }
  return toText(left) === toText(right);
}

/** Numbers and numeric text compare as numbers; two texts compare in code-point order; anything else is false. */
function order(left: unknown, right: unknown): number | null {
  const leftNumber = asNumber(left);
  const rightNumber = asNumber(right);
  if (leftNumber !== null && rightNumber !== null) return leftNumber - rightNumber;
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  return null;
}

/** Text contains text; a list contains an equal item; an object contains a key. */
function contains(left: unknown, right: unknown): boolean {
  if (typeof left === 'string') return left.includes(toText(right));
  if (Array.isArray(left)) {
    // An object or list is written out once, not once per item (a long list of objects would otherwise cost items × size).
    if (right !== null && typeof right === 'object') {
      const json = JSON.stringify(right);
      return left.some((item) => item !== null && typeof item === 'object' && JSON.stringify(item) === json);
    }
    return left.some((item) => looselyEqual(item, right));
  }
  if (left !== null && typeof left === 'object') return hasOwn(left, toText(right));
  return false;
}

export function compare(operator: ConditionOperator, left: unknown, right: unknown): boolean {
  switch (operator) {
    case 'eq':
      return looselyEqual(left, right);
    case 'neq':
      return !looselyEqual(left, right);
    case 'gt': {
      const difference = order(left, right);
      return difference !== null && difference > 0;
    }
    case 'gte': {
      const difference = order(left, right);
      return difference !== null && difference >= 0;
    }
    case 'lt': {
      const difference = order(left, right);
      return difference !== null && difference < 0;
    }
    case 'lte': {
      const difference = order(left, right);
      return difference !== null && difference <= 0;
    }
    case 'contains':
      return contains(left, right);
    case 'is_null':
      return isNull(left);
    case 'is_not_null':
      return !isNull(left);
  }
}
