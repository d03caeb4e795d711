import { formatApiKey, REQUEST_LOG_BODY_MAX, requestLogDetailsSchema, SecretMasker, type RequestLogDetails } from '@flowgate/contracts';
import { randomBytes } from 'node:crypto';
import { requestDetailsJson, type RequestDetailsInput } from './request-details';

const key = formatApiKey(randomBytes);
const secret = 'sk_live_0123456789abcdef';
const masker = SecretMasker.of([{ name: 'STRIPE_KEY', values: [secret] }]);

/** The details as log-ingest reads them: the event schema's own check. */
const details = (input: Partial<RequestDetailsInput>): RequestLogDetails =>
  requestLogDetailsSchema.parse(JSON.parse(requestDetailsJson({ rawHeaders: [], body: null, responseBytes: -1, masker: null, ...input })));

describe('requestDetailsJson', () => {
  it('keeps the headers in order with lower-cased names; credentials and any header carrying the key read [redacted]', () => {
    const shown = details({
      rawHeaders: ['Host', 'shop.example', 'Authorization', `Bearer ${key}`, 'Cookie', 'session=abc', 'X-API-Key', 'k', 'X-Forwarded-Key', `key=${key}`, 'Accept', '*/*'],
      responseBytes: 17,
    });
    expect(shown).toEqual({
      headers: [
        ['host', 'shop.example'],
        ['authorization', '[redacted]'],
        ['cookie', '[redacted]'],
        ['x-api-key', '[redacted]'],
        ['x-forwarded-key', '[redacted]'],
        ['accept', '*/*'],
      ],
      body: null,
      body_bytes: null,
      body_truncated: false,
      response_bytes: 17,
    });
  });

  it("masks the project's secret values in headers and body, and the presented key in the body", () => {
    const body = Buffer.from(JSON.stringify({ token: secret, again: key }));
    const shown = details({ rawHeaders: ['Authorization', `Bearer ${key}`, 'X-Upstream', `Bearer ${secret}`, 'Content-Type', 'application/json'], body, masker });
    expect(shown.headers[1]).toEqual(['x-upstream', 'Bearer [secret:STRIPE_KEY]']);
    expect(shown.body).toBe('{"token":"[secret:STRIPE_KEY]","again":"[redacted]"}');
    expect(shown.body_bytes).toBe(body.length);
    expect(JSON.stringify(shown)).not.toContain(secret);
    expect(JSON.stringify(shown)).not.toContain(key);
  });

  it('keeps the first 4,096 characters of a long body and marks the cut; a secret across the cut is masked whole', () => {
    const long = Buffer.from('a'.repeat(REQUEST_LOG_BODY_MAX - 5) + secret + 'b'.repeat(10_000));
    const shown = details({ rawHeaders: ['Content-Type', 'text/plain'], body: long, masker });
    expect(shown.body).toHaveLength(REQUEST_LOG_BODY_MAX);
    expect(shown.body!.startsWith('a'.repeat(REQUEST_LOG_BODY_MAX - 5) + '[secr')).toBe(true);
    expect(shown.body).not.toContain(secret.slice(0, 5));
    expect(shown).toMatchObject({ body_bytes: long.length, body_truncated: true });
    const short = details({ body: Buffer.from('name=Ada'), rawHeaders: ['content-type', 'application/x-www-form-urlencoded'] });
    expect(short).toMatchObject({ body: 'name=Ada', body_bytes: 8, body_truncated: false });
  });

  it('never cuts a character in half, and writes NUL as U+FFFD (PostgreSQL stores no NUL in JSON)', () => {
    const shown = details({ body: Buffer.from('é'.repeat(REQUEST_LOG_BODY_MAX * 2)), rawHeaders: ['Content-Type', 'text/plain; charset=utf-8'] });
    expect(shown.body).toBe('é'.repeat(REQUEST_LOG_BODY_MAX));
    expect(details({ body: Buffer.from('a\u0000b') }).body).toBe('a\ufffdb');
  });

  it('shows no text of a body that is not text, only its size', () => {
    const shown = details({ rawHeaders: ['Content-Type', 'image/png'], body: randomBytes(300) });
    expect(shown).toMatchObject({ body: null, body_bytes: 300, body_truncated: false });
  });

  it('cuts an over-long header value and keeps at most 32 headers', () => {
    const many = Array.from({ length: 40 }, (_, i) => [`X-H${i}`, 'v'.repeat(i === 0 ? 1000 : 3)]).flat();
    const shown = details({ rawHeaders: many });
    expect(shown.headers).toHaveLength(32);
    expect(shown.headers[0]![1]).toHaveLength(256);
    expect(shown.headers[0]![1].endsWith('…')).toBe(true);
  });
});
