import { TEXT_ENCODERS, type TextEncoding } from '@flowgate/contracts';
import { BlockFailure } from '../../runtime/run-errors';

export { TEXT_ENCODINGS, type TextEncoding } from '@flowgate/contracts';

/**
 * Text ↔ format. Every format but `ascii` encodes the text's UTF-8 bytes; decoding refuses
 * input that is not in the format, and bytes that are not UTF-8 text.
 */
export interface TextCodec {
  encode(text: string): string;
  /** Throws `BlockFailure` ("input is not valid hex"). */
  decode(encoded: string): string;
}

// ignoreBOM keeps a leading U+FEFF, so text that starts with one survives a round trip.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function bytesToText(bytes: Uint8Array): string {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    throw new BlockFailure('input decodes to bytes that are not valid UTF-8 text');
  }
}

function latin1ToBytes(text: string): Uint8Array | null {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return null;
    bytes[i] = code;
  }
  return bytes;
}

const WHITESPACE = /\s+/g;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function decodeBase64(encoded: string, alphabet: RegExp, urlSafe: boolean): string {
  const name = urlSafe ? 'Base64URL' : 'Base64';
  const compact = encoded.replace(WHITESPACE, '');
  // The alphabet check comes first: it allows `=` only as the last two characters.
  if (!alphabet.test(compact)) throw new BlockFailure(`input is not valid ${name}`);
  const unpadded = compact.replace(/=+$/, '');
  const padded = compact.length !== unpadded.length;
  if (unpadded.length % 4 === 1 || (padded && compact.length % 4 !== 0)) throw new BlockFailure(`input is not valid ${name}`);
  const standard = urlSafe ? unpadded.replace(/-/g, '+').replace(/_/g, '/') : unpadded;
  const bytes = latin1ToBytes(atob(standard));
  if (bytes === null) throw new BlockFailure(`input is not valid ${name}`);
  return bytesToText(bytes);
}

const base64: TextCodec = {
  encode: TEXT_ENCODERS.base64,
  decode: (encoded) => decodeBase64(encoded, BASE64, false),
};

/** RFC 4648 §5 alphabet, written without padding; padded input is accepted too. */
const base64url: TextCodec = {
  encode: TEXT_ENCODERS.base64url,
  decode: (encoded) => decodeBase64(encoded, BASE64URL, true),
};

const HEX_DIGITS = /^(?:[0-9a-fA-F]{2})*$/;

const hex: TextCodec = {
  encode: TEXT_ENCODERS.hex,
  decode: (encoded) => {
    const compact = encoded.replace(WHITESPACE, '');
    if (!HEX_DIGITS.test(compact)) throw new BlockFailure('input is not valid hex');
    const bytes = new Uint8Array(compact.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(compact.slice(i * 2, i * 2 + 2), 16);
    return bytesToText(bytes);
  },
};

const BINARY_GROUP = /^[01]{8}$/;
const NON_ASCII = /[\u0080-\uffff]/;

/** Groups of 8 bits separated by one space: "01001000 01101001". */
const binary: TextCodec = {
  encode: TEXT_ENCODERS.binary,
  decode: (encoded) => {
    const trimmed = encoded.trim();
    if (trimmed === '') return '';
    const groups = trimmed.split(WHITESPACE);
    if (!groups.every((group) => BINARY_GROUP.test(group))) {
      throw new BlockFailure('input is not valid binary (groups of 8 bits separated by spaces)');
    }
    return bytesToText(Uint8Array.from(groups, (group) => parseInt(group, 2)));
  },
};

/**
 * UTF-8 encoding written as text, one character per byte (as utf8.js does): "é" ↔ "Ã©".
 * Decoding repairs text whose UTF-8 bytes were read as Latin-1.
 */
const utf8: TextCodec = {
  encode: TEXT_ENCODERS.utf8,
  decode: (encoded) => {
    const bytes = latin1ToBytes(encoded);
    if (bytes === null) throw new BlockFailure('input is not valid UTF-8 encoded text (it has characters above U+00FF)');
    return bytesToText(bytes);
  },
};

/**
 * 7-bit ASCII with escapes, so any text round-trips: non-ASCII UTF-16 units become `\uXXXX`
 * and a backslash becomes `\\`. Decoding reads those escapes back and keeps any other
 * backslash as it is.
 */
const ascii: TextCodec = {
  encode: TEXT_ENCODERS.ascii,
  decode: (encoded) => {
    if (NON_ASCII.test(encoded)) throw new BlockFailure('input is not valid ASCII (it has characters above U+007F)');
    return encoded.replace(/\\(\\|u[0-9a-fA-F]{4})/g, (_escape, body: string) =>
      body === '\\' ? '\\' : String.fromCharCode(parseInt(body.slice(1), 16)),
    );
  },
};

export const TEXT_CODECS: Readonly<Record<TextEncoding, TextCodec>> = { base64, base64url, hex, utf8, ascii, binary };

/** Length of text's UTF-8 encoding, counted without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x800) bytes += code >= 0xd800 && code <= 0xdbff ? 1 : 2; // a surrogate pair: 4 bytes for 2 units
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

/**
 * The length `encode` would give (at most a few characters more for Base64 padding), worked
 * out before the work: hex doubles the bytes, binary writes nine characters for each.
 */
export function encodedLength(encoding: TextEncoding, text: string): number {
  if (encoding === 'ascii') return text.length * 6;
  const bytes = utf8Length(text);
  switch (encoding) {
    case 'base64':
    case 'base64url':
      return Math.ceil(bytes / 3) * 4;
    case 'hex':
      return bytes * 2;
    case 'binary':
      return bytes * 9;
    case 'utf8':
      return bytes;
  }
}

export const ENCODING_LABELS: Readonly<Record<TextEncoding, string>> = {
  base64: 'Base64',
  base64url: 'Base64URL',
  hex: 'Hex',
  utf8: 'UTF-8',
  ascii: 'ASCII',
  binary: 'Binary',
};
