import { RE2JS } from 're2js';
import { programSizeFloor } from './program-size-floor';

describe('programSizeFloor: what a pattern compiles to at least, read without compiling', () => {
  const patterns = [
    'abc',
    '(?<year>\\d{4})-(?P<m>\\d{2})',
    '(?i:ab)c|(?:abc|abd){3}',
    '[]a]{5}[[:alpha:]]{7}[^\\]]+',
    '\\p{Greek}{10}\\x{41}{3}',
    '(a|b|c){3}x{2,}y{0}',
    '^\\s*$',
    '[a-z]{1000}[0-9]{1000}',
    '((.)|b){0,1000}z',
    '.{0,1000}.{0,1000}.{0,1000}z',
  ];

  it.each(patterns)('is never above the size RE2 compiles %s to', (pattern) => {
    for (const flags of [0, RE2JS.CASE_INSENSITIVE]) expect(programSizeFloor(pattern)).toBeLessThanOrEqual(RE2JS.compile(pattern, flags).programSize());
  });

  it('counts each counted repetition as that many copies, nested ones multiplied', () => {
    expect(programSizeFloor('a{0,1000}')).toBe(1000);
    expect(programSizeFloor('(?:ab){10}(?:c{3}){4}')).toBe(20 + 12);
    expect(programSizeFloor('((.)|b){0,1000}z'.repeat(4))).toBe(4004);
  });
});
