import { formatJson, fromEntries, parseJson, toEntries } from './json-entries';
import { parseValueText } from './template-value';

describe("Respond's entries and raw JSON", () => {
  it('round-trips a body through the entries', () => {
    const body = { message: '{result.loud}', count: 3, ok: true, user: { name: 'Ada' }, none: null };
    const entries = toEntries(body);
    expect(entries).toContainEqual({ key: 'user', value: '{"name":"Ada"}' });
    expect(fromEntries(entries ?? [])).toEqual(body);
  });

  it('keeps text that looks like a template as text, and JSON scalars typed', () => {
    expect(parseValueText('Hello {params.name}')).toBe('Hello {params.name}');
    expect(parseValueText('42')).toBe(42);
    expect(parseValueText('false')).toBe(false);
    expect(parseValueText('{local.x}')).toBe('{local.x}');
  });

  it('leaves rows without a key out until they have one', () => {
    expect(fromEntries([{ key: '', value: 'x' }, { key: 'a', value: '1' }])).toEqual({ a: 1 });
  });

  it('shows a non-object body only as JSON', () => {
    expect(toEntries(['a'])).toBeNull();
    expect(parseJson(formatJson(['a']))).toEqual({ ok: true, value: ['a'] });
  });

  it('reports invalid JSON instead of a value', () => {
    expect(parseJson('{"a":')).toMatchObject({ ok: false, message: expect.stringContaining('Not valid JSON') });
  });
});
