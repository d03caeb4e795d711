import fc from 'fast-check';
import { TEXT_CODECS, TEXT_ENCODINGS } from './text-encodings';

describe('text encodings', () => {
  it.each([
    ['base64', 'Hello, wörld', 'SGVsbG8sIHfDtnJsZA=='],
    ['base64url', '>>>?', 'Pj4-Pw'],
    ['hex', 'Hi é', '486920c3a9'],
    ['utf8', 'é€', 'Ã©â\u0082¬'],
    ['ascii', 'é\\x', '\\u00e9\\\\x'],
    ['binary', 'Hi', '01001000 01101001'],
  ] as const)('%s encodes %j as %j', (encoding, text, encoded) => {
    expect(TEXT_CODECS[encoding].encode(text)).toBe(encoded);
    expect(TEXT_CODECS[encoding].decode(encoded)).toBe(text);
  });

  it('writes Base64URL with the URL-safe alphabet and no padding', () => {
    const encoded = TEXT_CODECS.base64url.encode('ÿÿ~~?');
    expect(encoded).toBe('w7_Dv35-Pw');
    expect(encoded).not.toMatch(/[+/=]/);
  });

  it('reads padded Base64URL and unpadded Base64 too', () => {
    expect(TEXT_CODECS.base64url.decode('Pj4-Pw==')).toBe('>>>?');
    expect(TEXT_CODECS.base64.decode('SGk')).toBe('Hi');
  });

  it('writes binary as 8-bit groups separated by single spaces, one group per UTF-8 byte', () => {
    expect(TEXT_CODECS.binary.encode('é')).toBe('11000011 10101001');
    expect(TEXT_CODECS.binary.decode('  11000011   10101001 ')).toBe('é');
  });

  it('reads upper-case hex', () => {
    expect(TEXT_CODECS.hex.decode('4869')).toBe('Hi');
    expect(TEXT_CODECS.hex.decode('C3A9')).toBe('é');
  });

  it('keeps a backslash that starts no escape when decoding ASCII', () => {
    expect(TEXT_CODECS.ascii.decode('C:\\temp \\u0041')).toBe('C:\\temp A');
  });

  it.each([
    ['hex', 'abc', 'input is not valid hex'],
    ['hex', 'zz', 'input is not valid hex'],
    ['base64', 'SGk$', 'input is not valid Base64'],
    ['base64', 'S', 'input is not valid Base64'],
    ['base64url', 'Pj4+Pw', 'input is not valid Base64URL'],
    ['binary', '0100100', 'input is not valid binary (groups of 8 bits separated by spaces)'],
    ['binary', '01001000 2', 'input is not valid binary (groups of 8 bits separated by spaces)'],
    ['ascii', 'héllo', 'input is not valid ASCII (it has characters above U+007F)'],
    ['utf8', '€', 'input is not valid UTF-8 encoded text (it has characters above U+00FF)'],
    ['utf8', 'Ã', 'input decodes to bytes that are not valid UTF-8 text'],
    ['hex', 'ff', 'input decodes to bytes that are not valid UTF-8 text'],
  ] as const)('refuses to decode %s %j: %s', (encoding, input, message) => {
    expect(() => TEXT_CODECS[encoding].decode(input)).toThrow(message);
  });

  it('refuses long malformed input promptly, without pathological backtracking', () => {
    expect(() => TEXT_CODECS.base64.decode(`${'='.repeat(200_000)}x`)).toThrow('input is not valid Base64');
    expect(() => TEXT_CODECS.hex.decode(`${'ab'.repeat(200_000)}x`)).toThrow('input is not valid hex');
  });

  describe.each(TEXT_ENCODINGS)('%s round trip', (encoding) => {
    const codec = TEXT_CODECS[encoding];
    it('decodes what it encodes, for any Unicode text', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => codec.decode(codec.encode(text)) === text),
        { numRuns: 300 },
      );
    });
    it('decodes what it encodes, for text made of graphemes (emoji, combining marks)', () => {
      fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 50 }), (text) => codec.decode(codec.encode(text)) === text), { numRuns: 200 });
    });
  });

  it('round-trips lone surrogates through ASCII escapes', () => {
    fc.assert(fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }), (text) => TEXT_CODECS.ascii.decode(TEXT_CODECS.ascii.encode(text)) === text));
  });

  it('encodes to 7-bit ASCII with every encoding but UTF-8', () => {
    const isAscii = (text: string) => [...text].every((char) => char.charCodeAt(0) < 0x80);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (text) =>
        TEXT_ENCODINGS.filter((encoding) => encoding !== 'utf8').every((encoding) => isAscii(TEXT_CODECS[encoding].encode(text))),
      ),
    );
  });
});
