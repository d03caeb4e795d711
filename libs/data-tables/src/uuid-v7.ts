import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;
const hex: string[] = Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0'));

let lastMs = 0;
let sequence = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit sequence (method 1 of
 * the RFC: ids made in the same millisecond by this process stay in order), then random bits.
 * Row ids sort in creation order, so the primary key's index grows at its right edge and `id`
 * is the default sort. The random bytes come from a pool refilled 4 KiB at a time.
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
  const bytes = pool.subarray(offset, offset + 8);
  offset += 8;
  const time = lastMs.toString(16).padStart(12, '0');
  const b = (index: number) => hex[bytes[index]!]!;
  return (
    `${time.slice(0, 8)}-${time.slice(8, 12)}-` +
    `7${sequence.toString(16).padStart(3, '0')}-${hex[(bytes[0]! & 0x3f) | 0x80]!}${b(1)}-` +
    `${b(2)}${b(3)}${b(4)}${b(5)}${b(6)}${b(7)}`
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
