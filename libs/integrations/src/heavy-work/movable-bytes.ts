import * as workerThreads from 'node:worker_threads';

/**
 * Bytes that can be moved (transferred) to another thread. A Buffer may be a view of a larger
 * ArrayBuffer shared with other Buffers (Node's pool, a codec's output chunk), and since Node 21
 * such memory is marked untransferable: posting it in a transfer list throws DataCloneError. Those
 * are copied into memory of their own; bytes that already own their whole, transferable
 * ArrayBuffer are moved as they are.
 */
export function movableBytes(bytes: Uint8Array): Uint8Array {
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  // Node 20 has no isMarkedAsUntransferable (it copied such memory silently instead of throwing).
  const untransferable = (workerThreads as { isMarkedAsUntransferable?: (value: object) => boolean }).isMarkedAsUntransferable?.(bytes.buffer) ?? false;
  return owned && !untransferable ? bytes : new Uint8Array(bytes);
}
