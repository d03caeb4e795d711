/**
 * Spreadsheets run a cell that starts with `=`, `+`, `-`, `@`, tab or carriage return as a
 * formula (`=HYPERLINK(…)` exfiltrates, DDE runs commands), and rows may come from anonymous
 * callers of a flow. Export writes such text with a leading `'` (OWASP, "CSV Injection"), which
 * spreadsheets show as text; import takes one leading `'` off again, so an export imports back
 * to the same values. Text that already starts with quotes before such a character gets one
 * more, so the round trip is exact for it too.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED = /^'+[=+\-@\t\r]/;

export const neutraliseFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

export const restoreFormula = (text: string): string => (NEUTRALISED.test(text) ? text.slice(1) : text);
