import { ENCODING_LABELS } from '@flowgate/flow-engine';

/** Comparison operators read as their symbol, with the identifier the docs and errors use. */
const SYMBOLS: Readonly<Record<string, string>> = { eq: '=', neq: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤' };

/** Values whose plain reading is not their identifier with spaces. */
const WORDS: Readonly<Record<string, string>> = {
  is_null: 'is empty',
  is_not_null: 'is not empty',
  in: 'is one of',
  contains: 'contains',
  asc: 'Ascending',
  desc: 'Descending',
  ...ENCODING_LABELS,
};

/**
 * What a select shows for an enum value of a block's config: people's words (`Trim spaces`,
 * `≥ (gte)`), while the value stored stays the identifier. Upper-case values (HTTP methods) stay.
 */
export function optionLabel(option: string): string {
  if (option in SYMBOLS) return `${SYMBOLS[option]} (${option})`;
  if (option in WORDS) return WORDS[option]!;
  if (option === option.toUpperCase()) return option;
  const words = option.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
