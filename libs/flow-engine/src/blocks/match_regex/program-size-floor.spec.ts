import { RE2JS } from 're2js';
import { surelyTooLarge } from './linear-regex';
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
    '(?:a{2,5}){3}',
    '(a)(?<n>b)(?P<m>c)(?:d)',
    '(x|(y)){2,4}',
  ];

  it.each(patterns)('is never above the size RE2 compiles %s to', (pattern) => {
    for (const flags of [0, RE2JS.CASE_INSENSITIVE]) expect(programSizeFloor(pattern)).toBeLessThanOrEqual(RE2JS.compile(pattern, flags).programSize());
  });

  it('counts each counted repetition as that many copies, nested ones multiplied, an optional copy one more', () => {
    expect(programSizeFloor('a{0,1000}')).toBe(2000);
    expect(programSizeFloor('(?:ab){10}(?:c{3}){4}')).toBe(20 + 12);
    expect(programSizeFloor('(?:a{2,5}){3}')).toBe(3 * (5 + 3));
  });

  it('counts two instructions around each capturing group, none around the others', () => {
    expect(programSizeFloor('(a)(?<n>b)(?P<m>c)')).toBe(9);
    expect(programSizeFloor('(?:a)(?i:b)(?i)c')).toBe(3);
  });

  it('refuses unread a short pattern whose repeated groups compile to thousands of instructions', () => {
    // 8,003 instructions once compiled; before groups counted, its floor was 1,001 and every request compiled it.
    expect(programSizeFloor('((.)|b){0,1000}z')).toBe(6001);
    expect(surelyTooLarge('((.)|b){0,1000}z')).toBe(true);
  });
});
