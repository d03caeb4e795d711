import { randomBytes } from 'node:crypto';
import { API_KEY_LENGTH, apiKeyDisplayPrefix, formatApiKey, isWellFormedApiKey } from './api-key-format';

describe('API key format', () => {
  it('makes prefixed keys of a fixed length that pass their own checksum', () => {
    const keys = Array.from({ length: 200 }, () => formatApiKey(randomBytes));
    for (const key of keys) {
      expect(key).toMatch(/^fg_[0-9A-Za-z]{38}$/);
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('refuses a key with one character changed, so a typo never costs a lookup', () => {
    const key = formatApiKey(randomBytes);
    for (const index of [3, 20, 34, API_KEY_LENGTH - 1]) {
      const swapped = key[index] === 'a' ? 'b' : 'a';
      expect(isWellFormedApiKey(key.slice(0, index) + swapped + key.slice(index + 1))).toBe(false);
    }
  });

  it('refuses other shapes: wrong prefix, wrong length, other alphabets', () => {
    const key = formatApiKey(randomBytes);
    expect(isWellFormedApiKey(`sk_${key.slice(3)}`)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey(`fg_${'-'.repeat(38)}`)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('uses every base62 character (the random part is not biased to a subset)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) for (const char of formatApiKey(randomBytes).slice(3, 35)) seen.add(char);
    expect(seen.size).toBe(62);
  });

  it('shows only a short prefix of the secret', () => {
    const key = formatApiKey(randomBytes);
    expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 10));
  });
});
