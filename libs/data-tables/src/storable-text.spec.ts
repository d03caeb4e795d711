import { MAX_JSON_DEPTH } from '@flowgate/contracts';
import { unstorableJson, unstorableText } from './storable-text';

describe('what PostgreSQL cannot store as given', () => {
  it('refuses NUL and lone surrogates in text, and keeps every other character', () => {
    expect(unstorableText('a\u0000b')).toMatch(/NUL/);
    expect(unstorableText('\ud800')).toMatch(/lone surrogate/);
    expect(unstorableText('x\udc00')).toMatch(/lone surrogate/);
    expect(unstorableText('😀 é \u0001 \uffff')).toBeNull();
  });

  it('walks JSON strings and keys, and refuses nesting past the limit without overflowing', () => {
    expect(unstorableJson({ ok: ['fine', 1, null, { 'k\u0000': 1 }] })).toMatch(/NUL/);
    expect(unstorableJson([{ a: '\ud83d' }])).toMatch(/lone surrogate/);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableJson(deep)).toMatch(new RegExp(`deeper than ${MAX_JSON_DEPTH}`));
    let allowed: unknown = 'leaf';
    for (let i = 0; i < MAX_JSON_DEPTH; i++) allowed = { a: allowed };
    expect(unstorableJson(allowed)).toBeNull();
  });
});
