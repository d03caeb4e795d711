import { randomUUID } from 'node:crypto';
import { requestLogEventSchema, splitRequestLogMessage } from './request-log-event';

const event = () => ({
  v: 1,
  id: randomUUID(),
  project_id: randomUUID(),
  endpoint_id: null,
  path: '/api/orders',
  method: 'GET',
  status: 200,
  code: null,
  duration_ms: 1.25,
  key_id: randomUUID(),
  time: new Date().toISOString(),
});

describe('request-log event schema', () => {
  it('accepts the event a gateway produces', () => {
    expect(requestLogEventSchema.safeParse(event()).success).toBe(true);
  });

  it.each([
    ['an id that is not a UUID', { id: 'nope' }],
    ['a status outside HTTP', { status: 700 }],
    ['a negative duration', { duration_ms: -1 }],
    ['a time without offset', { time: '2026-11-22 10:00' }],
    ['another schema version', { v: 2 }],
    ['an over-long path', { path: `/${'a'.repeat(2048)}` }],
    ['an over-long query', { query: 'a'.repeat(2049) }],
    ['an over-long message', { message: 'm'.repeat(1025) }],
  ])('refuses %s', (_what, change) => {
    expect(requestLogEventSchema.safeParse({ ...event(), ...change }).success).toBe(false);
  });
});

describe('request-log event details', () => {
  it('keeps the query, the error message and the failed block', () => {
    const parsed = requestLogEventSchema.parse({ ...event(), status: 500, query: 'q=1&x=%20', message: 'Decode Text (x1): bad hex', error_node_id: 'x1' });
    expect(parsed).toMatchObject({ query: 'q=1&x=%20', message: 'Decode Text (x1): bad hex', error_node_id: 'x1' });
  });

  it('reads an event of an older gateway (without them) as no query, no message, no block', () => {
    expect(requestLogEventSchema.parse(event())).toMatchObject({ query: '', message: null, error_node_id: null });
  });
});

describe('request-log message format (NDJSON)', () => {
  it('splits a message into its event lines, in order, skipping empty lines', () => {
    const a = JSON.stringify(event());
    const b = JSON.stringify({ ...event(), path: '/with\nnewline' });
    expect(splitRequestLogMessage(a)).toEqual([a]);
    expect(splitRequestLogMessage(`${a}\n${b}\n`)).toEqual([a, b]);
    expect(splitRequestLogMessage('\n')).toEqual([]);
    expect(splitRequestLogMessage(`${b}\n${a}`).map((line) => requestLogEventSchema.parse(JSON.parse(line)).path)).toEqual(['/with\nnewline', '/api/orders']);
  });
});
