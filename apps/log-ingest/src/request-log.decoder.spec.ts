import { randomUUID } from 'node:crypto';
import { decodeRequestLogEvent } from './request-log.decoder';

const valid = () => ({
  v: 1,
  id: randomUUID(),
  project_id: randomUUID(),
  endpoint_id: null,
  path: '/orders',
  method: 'GET',
  status: 200,
  code: null,
  duration_ms: 1.25,
  key_id: randomUUID(),
  time: '2026-11-22T10:00:00.123Z',
});

const encode = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('decodeRequestLogEvent', () => {
  it('accepts a v1 event and returns it as parsed', () => {
    const event = valid();
    expect(decodeRequestLogEvent(encode(event))).toEqual({ ok: true, event });
  });

  it('rejects an empty or missing value', () => {
    expect(decodeRequestLogEvent(null)).toMatchObject({ ok: false, rejection: { reason: 'empty_message' } });
    expect(decodeRequestLogEvent(Buffer.alloc(0))).toMatchObject({ ok: false, rejection: { reason: 'empty_message' } });
  });

  it('rejects text that is not JSON', () => {
    const result = decodeRequestLogEvent(Buffer.from('{"v":1,'));
    expect(result).toMatchObject({ ok: false, rejection: { reason: 'invalid_json' } });
  });

  it('rejects an event that breaks the schema and names the fields', () => {
    const result = decodeRequestLogEvent(encode({ ...valid(), id: 'not-a-uuid', status: 42 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.reason).toBe('invalid_event');
    expect(result.rejection.detail).toContain('id:');
    expect(result.rejection.detail).toContain('status:');
  });

  it('rejects an event of another version', () => {
    expect(decodeRequestLogEvent(encode({ ...valid(), v: 2 }))).toMatchObject({ ok: false, rejection: { reason: 'invalid_event' } });
  });
});
