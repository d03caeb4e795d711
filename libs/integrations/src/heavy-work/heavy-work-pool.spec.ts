import { Jimp } from 'jimp';
import { decodeImage, encodePng } from '../images/image-codec';
import { createHeavyWorkPool, type HeavyWorkPool } from './heavy-work-pool';
import { movableBytes } from './movable-bytes';

// The pool's threads with a real image task (no services): the PNG the thread makes must come
// back to the caller whatever memory the codec made it in (Node ≥ 21 refuses to move memory
// marked untransferable, such as a Buffer of Node's shared pool).

describe('heavy-work pool', () => {
  let pool: HeavyWorkPool;
  beforeAll(() => {
    pool = createHeavyWorkPool({ threads: 1, maxQueue: 4, taskMs: 60_000, codeMemoryMb: 32 });
  });
  afterAll(() => pool.close());

  // A thread from source compiles the image codecs first: slow on a busy machine, so a generous bound (not an assertion).
  it('filters an image on a thread and hands back a PNG of the same size', async () => {
    const source = await encodePng(new Jimp({ width: 16, height: 8, color: 0x336699ff }).bitmap);
    // A view into a larger shared ArrayBuffer, as a Buffer from Node's pool is.
    const shared = Buffer.from(source);
    const result = await pool.filterImage('project', { source: shared, operation: 'grayscale', value: 100, maxPixels: 1_000_000 }, new AbortController().signal);

    expect(result.ok).toBe(true);
    const bitmap = await decodeImage(Buffer.from((result as { png: Uint8Array }).png), 1_000_000);
    expect([bitmap.width, bitmap.height]).toEqual([16, 8]);
  }, 180_000);
});

describe('movableBytes', () => {
  it('moves bytes that own their memory and copies a view of shared memory', () => {
    const own = new Uint8Array([1, 2, 3]);
    expect(movableBytes(own)).toBe(own);
    const pooled = Buffer.from('abc');
    const moved = movableBytes(pooled);
    expect(moved).not.toBe(pooled);
    expect([...moved]).toEqual([...pooled]);
    expect(moved.byteLength).toBe(moved.buffer.byteLength);
  });
});
