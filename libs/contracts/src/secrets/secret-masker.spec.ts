import { maskText, SecretMasker } from './secret-masker';

describe('SecretMasker', () => {
  const masker = SecretMasker.of([
    { name: 'API_TOKEN', values: ['sk-live-0123', 'sk-prev-9876'] },
    { name: 'PIN', values: ['abc'] },
    { name: 'SPECIAL', values: ['a+b/c?d=e&f'] },
  ])!;

  it('replaces live and preview values, as written, percent-encoded and base64', () => {
    expect(masker.text('Bearer sk-live-0123 and sk-prev-9876')).toBe('Bearer [secret:API_TOKEN] and [secret:API_TOKEN]');
    expect(masker.text(`GET https://x.example/?q=${encodeURIComponent('a+b/c?d=e&f')}`)).toBe('GET https://x.example/?q=[secret:SPECIAL]');
    expect(masker.text(Buffer.from('sk-live-0123').toString('base64'))).toBe('[secret:API_TOKEN]');
    expect(masker.text(Buffer.from('sk-live-0123').toString('hex'))).toBe('[secret:API_TOKEN]');
  });

  it('leaves values shorter than 4 characters alone', () => {
    expect(masker.text('abc def')).toBe('abc def');
  });

  it('masks every string and key of a JSON value without changing the input', () => {
    const echoed = { headers: { authorization: 'Bearer sk-live-0123' }, list: ['sk-live-0123', 3], 'sk-live-0123': true };
    expect(masker.value(echoed)).toEqual({ headers: { authorization: 'Bearer [secret:API_TOKEN]' }, list: ['[secret:API_TOKEN]', 3], '[secret:API_TOKEN]': true });
    expect(echoed.headers.authorization).toBe('Bearer sk-live-0123');
  });

  it('is null when there is nothing to mask, and maskText then gives the text as is', () => {
    expect(SecretMasker.of([])).toBeNull();
    expect(SecretMasker.of([{ name: 'A', values: ['ab', null] }])).toBeNull();
    expect(maskText(null, 'sk-live-0123')).toBe('sk-live-0123');
  });
});
