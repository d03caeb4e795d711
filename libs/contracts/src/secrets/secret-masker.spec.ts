import { TEXT_ENCODERS, TEXT_ENCODINGS } from '../text-encoders';
import { MAX_SECRET_VALUE_BYTES, MAX_SECRETS_PER_PROJECT } from './secret-rules';
import { MAX_MESSAGE_CHARS, maskText, safeMessage, SecretMasker } from './secret-masker';

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

  describe('every form a value takes in a message', () => {
    // Quotes, a backslash, upper case and non-ASCII: every form differs from the value.
    const value = 'Sk"Live\\Ünïcode-0123';
    const secret = SecretMasker.of([{ name: 'TOKEN', values: [value] }])!;
    const forms: Array<[string, string]> = [
      ['as written', value],
      ['JSON-escaped', JSON.stringify(value).slice(1, -1)],
      ['lower-cased (a host in a DNS error)', value.toLowerCase()],
      ['percent-encoded', encodeURIComponent(value)],
      ...TEXT_ENCODINGS.map((encoding): [string, string] => [`Encode Text ${encoding}`, TEXT_ENCODERS[encoding](value)]),
      ...TEXT_ENCODINGS.map((encoding): [string, string] => [`Encode Text ${encoding}, JSON-escaped`, JSON.stringify(TEXT_ENCODERS[encoding](value)).slice(1, -1)]),
    ];

    it.each(forms)('masks it %s', (_form, text) => {
      expect(secret.text(`before ${text} after`)).toBe('before [secret:TOKEN] after');
    });
  });

  it('masks a project at the limits (100 secrets of 8 KiB, live and preview) in every form', () => {
    const value = (i: number, kind: string) => `${kind}-${i}-`.padEnd(MAX_SECRET_VALUE_BYTES, String.fromCharCode(65 + (i % 26)));
    const many = Array.from({ length: MAX_SECRETS_PER_PROJECT }, (_, i) => ({ name: `S${i}`, values: [value(i, 'live'), value(i, 'preview')] }));
    const big = SecretMasker.of(many)!;
    for (const encoding of TEXT_ENCODINGS) expect(big.text(`got ${TEXT_ENCODERS[encoding](value(99, 'preview'))}!`)).toBe('got [secret:S99]!');
    expect(big.text('nothing secret here')).toBe('nothing secret here');
  });

  describe('safeMessage', () => {
    it('masks a long value before it cuts the message, so no part of it is left at the cut', () => {
      const long = `sk-${'x'.repeat(MAX_MESSAGE_CHARS)}`;
      const secret = SecretMasker.of([{ name: 'LONG', values: [long] }]);
      const message = `Insert Row (n2): price expects a number, got ${JSON.stringify(long)}`;
      expect(safeMessage(secret, message)).toBe('Insert Row (n2): price expects a number, got "[secret:LONG]"');
      const cut = safeMessage(null, message);
      expect(cut).toHaveLength(MAX_MESSAGE_CHARS);
      expect(cut.endsWith('…')).toBe(true);
    });

    it('leaves short messages as they are and never ends on half a surrogate pair', () => {
      expect(safeMessage(null, 'Decode Text (n3): input is not valid hex')).toBe('Decode Text (n3): input is not valid hex');
      const emoji = safeMessage(null, '😀'.repeat(MAX_MESSAGE_CHARS));
      expect(emoji.endsWith('😀…')).toBe(true);
    });
  });
});
