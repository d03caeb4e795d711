/**
 * The encode half of Encode Text's formats. It lives here, beside the secret masker, because the
 * masker looks for a secret in every form Encode Text can give it (secret-masker.ts); the block
 * adds the decoders (libs/flow-engine text-encodings.ts). Every format but `ascii` encodes the
 * text's UTF-8 bytes.
 */
export const TEXT_ENCODINGS = ['base64', 'base64url', 'hex', 'utf8', 'ascii', 'binary'] as const;
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];

const utf8Encoder = new TextEncoder();

/**
 * One char per byte (U+0000–U+00FF): the form btoa/atob work on. `apply` with the typed array
 * itself, not a spread (which iterates): about 10× faster, and the masker encodes every value
 * of a project in every format when the project loads.
 */
export function bytesToLatin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  }
  return out;
}

const base64 = (text: string): string => btoa(bytesToLatin1(utf8Encoder.encode(text)));

/** Each byte's two hex digits and eight bits, looked up rather than formatted per byte. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const BITS = Array.from({ length: 256 }, (_, byte) => byte.toString(2).padStart(8, '0'));

function hex(text: string): string {
  const bytes = utf8Encoder.encode(text);
  const parts = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = HEX[bytes[i]!]!;
  return parts.join('');
}

function binary(text: string): string {
  const bytes = utf8Encoder.encode(text);
  const parts = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = BITS[bytes[i]!]!;
  return parts.join(' ');
}

/**
 * 7-bit ASCII with escapes, so any text round-trips: non-ASCII UTF-16 units become `\uXXXX`
 * and a backslash becomes `\\`.
 */
function ascii(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c) out += '\\\\';
    else if (code < 0x80) out += text[i];
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

export const TEXT_ENCODERS: Readonly<Record<TextEncoding, (text: string) => string>> = {
  base64,
  /** RFC 4648 §5 alphabet, written without padding. */
  base64url: (text) => base64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  hex,
  /** UTF-8 encoding written as text, one character per byte (as utf8.js does): "é" → "Ã©". */
  utf8: (text) => bytesToLatin1(utf8Encoder.encode(text)),
  ascii,
  /** Groups of 8 bits separated by one space: "01001000 01101001". */
  binary,
};
