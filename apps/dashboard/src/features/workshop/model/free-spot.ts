import type { FlowNode } from '@flowgate/flow-engine';
import type { Position } from './workshop-document';

/** The room a block takes on the canvas with a margin around it (a block is 180 × ~48 px). */
export const BLOCK_ROOM = { width: 200, height: 68 };

const overlaps = (a: Position, b: Position) => Math.abs(a.x - b.x) < BLOCK_ROOM.width && Math.abs(a.y - b.y) < BLOCK_ROOM.height;

/**
 * How far copies go so that none of them covers a block already there. Below their originals:
 * the first row down (slightly to the right, so the copy reads as a copy) where all are clear.
 * Where the user put them (`at`: moved by that much, to the pointer): there, or the first row
 * down from there where all are clear.
 */
export function clearOffset(copies: readonly Position[], others: readonly FlowNode[], at?: Position): Position {
  for (let row = at ? 0 : 1; ; row++) {
    const offset = at ? { x: at.x, y: at.y + row * BLOCK_ROOM.height } : { x: 40, y: row * BLOCK_ROOM.height };
    const clear = copies.every((copy) => others.every((other) => !overlaps({ x: copy.x + offset.x, y: copy.y + offset.y }, other.position)));
    if (clear) return offset;
  }
}

/** The box the blocks at these positions span (their top-left corners): its corner and its size. */
export function spanOf(positions: readonly Position[]): Position & { width: number; height: number } {
  const xs = positions.map((position) => position.x);
  const ys = positions.map((position) => position.y);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}
