import { optionLabel } from './option-label';

describe('optionLabel', () => {
  it('reads identifiers in people\'s words, symbols with their identifier, and leaves methods alone', () => {
    expect(['trim_spaces', 'uppercase', 'gte', 'neq', 'is_null', 'utf8', 'GET', 'hue_rotate'].map(optionLabel)).toEqual([
      'Trim spaces',
      'Uppercase',
      '≥ (gte)',
      '≠ (neq)',
      'is empty',
      'UTF-8',
      'GET',
      'Hue rotate',
    ]);
  });
});
