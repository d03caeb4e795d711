/**
 * Opaque keyset cursors over (time, id): `n` continues to older entries (Next), `p` to newer
 * ones (Back). The position is the entry the cursor was taken from, which is excluded.
 */
export interface LogCursor {
  direction: 'next' | 'prev';
  time: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(cursor: LogCursor): string {
  const payload = [cursor.direction === 'next' ? 'n' : 'p', cursor.time.toISOString(), cursor.id].join('|');
  return Buffer.from(payload, 'utf8').toString('base64url');
}

/** The cursor, or null when the text is not one this API issued. */
export function decodeCursor(text: string): LogCursor | null {
  const [direction, time, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length || (direction !== 'n' && direction !== 'p') || !time || !id || !UUID.test(id)) return null;
  const date = new Date(time);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== time) return null;
  return { direction: direction === 'n' ? 'next' : 'prev', time: date, id };
}
