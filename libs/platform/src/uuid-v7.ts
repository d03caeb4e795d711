import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;
const hex: string[] = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0'));
/** The variant nibble (binary 10xx) with the next four random bits: `8`…`b` then a hex digit. */
const variant: string[] = Array.from({ length: 256 }, (_, index) => ((index & 0x3f) | 0x80).toString(16));
const sequenceHex: string[] = Array.from({ length: 0x1000 }, (_, index) => index.toString(16).padStart(3, '0'));

let lastMs = 0;
let sequence = 0;
/** `xxxxxxxx-xxxx-7` of lastMs, made once per millisecond. */
let prefixMs = -1;
let prefix = '';

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit sequence (method 1 of
 * the RFC: ids made in the same millisecond by this process stay in order), then random bits.
 * Row ids sort in creation order, so the primary key's index grows at its right edge and `id`
 * is the default sort. The random bytes come from a pool refilled 4 KiB at a time; the text is
 * put together from tables (it is made once per request log event too).
 */
export function uuidV7(now: number = Date.now()): string {
  if (offset + 8 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  if (now > lastMs) {
    lastMs = now;
    sequence = pool[offset]! << 2; // a random start below half the range leaves room for a burst
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  if (lastMs !== prefixMs) {
    const time = lastMs.toString(16).padStart(12, '0');
    prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    prefixMs = lastMs;
  }
  const at = offset;
  offset += 8;
  return (
    prefix + sequenceHex[sequence]! + '-' + variant[pool[at]!]! + hex[pool[at + 1]!]! + '-' +
    hex[pool[at + 2]!]! + hex[pool[at + 3]!]! + hex[pool[at + 4]!]! + hex[pool[at + 5]!]! + hex[pool[at + 6]!]! + hex[pool[at + 7]!]!
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
