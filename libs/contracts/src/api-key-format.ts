/**
 * API key format: `fg_` + 32 base62 random characters + 6 base62 characters of CRC-32 of the
 * random part. The checksum lets the gateway refuse typos and garbage without a Redis call.
 * Only SHA-256 of the whole key is stored; the first 10 characters are kept as a display prefix.
 */
export const API_KEY_PREFIX = 'fg_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^fg_[0-9A-Za-z]{38}$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** Builds a key from a source of cryptographic randomness (e.g. `crypto.randomBytes`). */
export function formatApiKey(random: (size: number) => Uint8Array): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    // Bytes ≥ 248 (= 4 × 62) are dropped so every character is equally likely.
    for (const byte of random(BODY_LENGTH)) if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
  }
  return API_KEY_PREFIX + body + checksum(body);
}

/** True when the text has the key shape and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== API_KEY_LENGTH || !KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  return key.slice(API_KEY_PREFIX.length + BODY_LENGTH) === checksum(body);
}

export const apiKeyDisplayPrefix = (key: string): string => key.slice(0, 10);
