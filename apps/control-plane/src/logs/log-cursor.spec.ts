import { decodeCursor, encodeCursor } from './log-cursor';
import { pathsFor } from './logs.service';

describe('log cursors', () => {
  const position = { time: new Date('2026-03-01T12:00:00.123Z'), id: '0b6f3f1e-9c1a-4d7e-8f00-0123456789ab' };

  it('round-trips both directions', () => {
    for (const direction of ['next', 'prev'] as const) expect(decodeCursor(encodeCursor({ direction, ...position }))).toEqual({ direction, ...position });
  });

  it.each(['', 'garbage', Buffer.from('x|2026-03-01T12:00:00.123Z|0b6f3f1e-9c1a-4d7e-8f00-0123456789ab').toString('base64url'), Buffer.from('n|not-a-time|0b6f3f1e-9c1a-4d7e-8f00-0123456789ab').toString('base64url'), Buffer.from("n|2026-03-01T12:00:00.123Z|1' OR '1'='1").toString('base64url')])(
    'refuses %p',
    (text) => {
      expect(decodeCursor(text)).toBeNull();
    },
  );
});

describe('endpoint path filter', () => {
  it('matches both served forms of an endpoint path', () => {
    expect(pathsFor('/orders')).toEqual(['/orders', '/api/orders']);
    expect(pathsFor('orders')).toEqual(['/orders', '/api/orders']);
    expect(pathsFor('/api/orders')).toEqual(['/api/orders']);
    expect(pathsFor('/')).toEqual(['/', '/api']);
  });
});
