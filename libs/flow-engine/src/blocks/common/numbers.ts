/**
 * Decimal numbers as people type them into query strings: "42", "-3.5", " 1e3 ". Written
 * without ambiguous repetition, so a long run of digits cannot make it backtrack.
 */
const NUMERIC_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
/** Longer text is not a number anyone typed (and need not be scanned). */
const MAX_NUMERIC_TEXT = 100;

/** The value as a finite number when it is a number or numeric text; otherwise null. */
export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.length <= MAX_NUMERIC_TEXT && NUMERIC_TEXT.test(value)) {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  }
  return null;
}
