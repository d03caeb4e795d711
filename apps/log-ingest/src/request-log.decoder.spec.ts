import { randomUUID } from 'node:crypto';
import { decodeRequestLogEvent, decodeRequestLogMessage, eventBytes } from './request-log.decoder';

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
  query: 'page=2',
  message: null,
  error_node_id: null,
  environment: 'live',
  trigger: 'http',
  details: null,
});

const encode = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('decodeRequestLogEvent', () => {
  it('accepts a v1 event and returns it as parsed', () => {
    const event = valid();
    expect(decodeRequestLogEvent(encode(event))).toEqual({ ok: true, event });
  });

  it('reads an event of a gateway older than the log details (no query, message, error_node_id, environment) with empty details, as live', () => {
    const { query, message, error_node_id, environment, trigger, details, ...older } = valid();
    expect([query, message, error_node_id, environment, trigger, details]).toEqual(['page=2', null, null, 'live', 'http', null]);
    expect(decodeRequestLogEvent(encode(older))).toEqual({
      ok: true,
      event: { ...older, query: '', message: null, error_node_id: null, environment: 'live', trigger: 'http', details: null },
    });
  });

  it('keeps the cache outcome and the details text as it came, and refuses details over their bound', () => {
    const details = JSON.stringify({ headers: [['host', 'shop.example']], body: '{"a":1}', body_bytes: 7, body_truncated: false, response_bytes: 2 });
    const event = { ...valid(), cache: 'hit', streamed: true, details };
    expect(decodeRequestLogEvent(encode(event))).toEqual({ ok: true, event });
    const tooLong = decodeRequestLogEvent(encode({ ...event, details: `"${'x'.repeat(64 * 1024)}"` }));
    expect(tooLong).toMatchObject({ ok: false, rejection: { reason: 'invalid_event', detail: expect.stringContaining('details') } });
    expect(decodeRequestLogEvent(encode({ ...event, cache: 'stale' }))).toMatchObject({ ok: false, rejection: { reason: 'invalid_event' } });
  });

  it('keeps the preview environment', () => {
    const event = { ...valid(), environment: 'preview' };
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

describe('decodeRequestLogMessage (NDJSON: one event per line)', () => {
  it('decodes a single-event message as before, keeping its bytes', () => {
    const event = valid();
    const value = encode(event);
    expect(decodeRequestLogMessage(value)).toEqual([{ ok: true, event, value }]);
  });

  it('decodes every line of a packed message, in order, each with its own text', () => {
    const events = [valid(), valid(), valid()];
    const lines = events.map((event) => JSON.stringify(event));
    const decoded = decodeRequestLogMessage(Buffer.from(`${lines.join('\n')}\n`));
    expect(decoded).toEqual(events.map((event, n) => ({ ok: true, event, line: lines[n] })));
    expect(eventBytes(decoded[1])).toEqual(Buffer.from(lines[1]));
  });

  it('rejects a malformed line alone and keeps the valid ones', () => {
    const good = [valid(), valid()];
    const broken = '{"v":1,';
    const invalid = JSON.stringify({ ...valid(), id: 'not-a-uuid' });
    const decoded = decodeRequestLogMessage(Buffer.from([JSON.stringify(good[0]), broken, invalid, JSON.stringify(good[1])].join('\n')));
    expect(decoded).toHaveLength(4);
    expect(decoded[0]).toMatchObject({ ok: true, event: good[0] });
    expect(decoded[1]).toMatchObject({ ok: false, rejection: { reason: 'invalid_json' }, line: broken });
    expect(decoded[2]).toMatchObject({ ok: false, rejection: { reason: 'invalid_event' }, line: invalid });
    expect(decoded[3]).toMatchObject({ ok: true, event: good[1] });
  });

  it('rejects an empty message once', () => {
    expect(decodeRequestLogMessage(null)).toEqual([{ ok: false, rejection: expect.objectContaining({ reason: 'empty_message' }), value: null }]);
    expect(decodeRequestLogMessage(Buffer.from('\n\n'))).toMatchObject([{ ok: false, rejection: { reason: 'empty_message' } }]);
  });
});
