import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth';

const nested = (depth: number, open = '[', close = ']'): string => open.repeat(depth) + close.repeat(depth);

describe('jsonTooDeep', () => {
  it('accepts JSON nested exactly to the limit and refuses one level more', () => {
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(nested(50_000))).toBe(true);
  });

  it('counts objects and arrays together', () => {
    const mixed = '{"a":['.repeat(70) + ']}'.repeat(70);
    expect(JSON.parse(mixed)).toBeDefined();
    expect(jsonTooDeep(mixed)).toBe(true);
    expect(jsonTooDeep(mixed, 140)).toBe(false);
  });

  it('ignores brackets inside strings, including after escaped quotes and backslashes', () => {
    const inString = JSON.stringify({ text: '['.repeat(5_000), quoted: 'say "{{{{" \\', more: '{'.repeat(300) });
    expect(jsonTooDeep(inString)).toBe(false);
    const afterEscapedBackslash = `["\\\\", ${nested(MAX_JSON_DEPTH + 1)}]`;
    expect(jsonTooDeep(afterEscapedBackslash)).toBe(true);
  });

  it('measures the deepest point, not the number of brackets', () => {
    const wide = `[${Array.from({ length: 10_000 }, () => '{"a":[1]}').join(',')}]`;
    expect(jsonTooDeep(wide)).toBe(false);
  });

  it('leaves malformed text to JSON.parse', () => {
    expect(jsonTooDeep('"unterminated ' + '['.repeat(500))).toBe(false);
    expect(jsonTooDeep('x'.repeat(500))).toBe(false);
  });
});
