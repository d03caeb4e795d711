import { JSON_TOO_DEEP_MESSAGE, MAX_JSON_DEPTH } from '@flowgate/contracts';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { formToObject, parseBody, readRawBody } from './request-body';

const parse = (text: string, type?: string) => parseBody(Buffer.from(text), type);

describe('parseBody', () => {
  it('parses JSON with or without a content type, and +json types', () => {
    expect(parse('{"a":1}', 'application/json; charset=utf-8')).toEqual({ ok: true, value: { a: 1 } });
    expect(parse('[1,2]')).toEqual({ ok: true, value: [1, 2] });
    expect(parse('{"a":1}', 'application/vnd.api+json')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('reports malformed JSON as invalid_json', () => {
    expect(parse('{"a":', 'application/json')).toMatchObject({ ok: false, code: 'invalid_json' });
  });

  it('refuses JSON nested deeper than MAX_JSON_DEPTH as invalid_json, before parsing', () => {
    const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expect(parse(deep(MAX_JSON_DEPTH), 'application/json')).toMatchObject({ ok: true });
    expect(parse(deep(MAX_JSON_DEPTH + 1), 'application/json')).toEqual({ ok: false, code: 'invalid_json', message: JSON_TOO_DEEP_MESSAGE });
    expect(parse(deep(10_000))).toMatchObject({ ok: false, code: 'invalid_json' });
    expect(parse(deep(10_000), 'text/plain')).toEqual({ ok: true, value: deep(10_000) });
  });

  it('treats an empty body as null', () => {
    expect(parse('', 'application/json')).toEqual({ ok: true, value: null });
  });

  it('turns form fields into an object, repeated fields into arrays', () => {
    expect(parse('a=1&b=x+y&a=2', 'application/x-www-form-urlencoded')).toEqual({ ok: true, value: { a: ['1', '2'], b: 'x y' } });
  });

  it('keeps text that is not JSON as text', () => {
    expect(parse('hello', 'text/plain')).toEqual({ ok: true, value: 'hello' });
    expect(parse('{"a":1}', 'text/plain')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('refuses other media types', () => {
    expect(parse('--x', 'multipart/form-data; boundary=x')).toMatchObject({ ok: false, code: 'unsupported_media_type' });
  });
});

describe('formToObject', () => {
  it('keeps __proto__ as an own field without touching the prototype', () => {
    const value = formToObject('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(value.constructor).toBe('y');
  });
});

describe('readRawBody with a large-body gate', () => {
  /** A request stream with headers, fed by the test. */
  function request(headers: Record<string, string> = {}): IncomingMessage & PassThrough {
    return Object.assign(new PassThrough(), { headers }) as unknown as IncomingMessage & PassThrough;
  }
  const settled = (promise: Promise<unknown>) => Promise.race([promise.then(() => true), new Promise((resolve) => setImmediate(() => resolve(false)))]);

  it('stops reading a body once it grows past the gate, until the gate opens', async () => {
    const req = request();
    let open: () => void = () => undefined;
    const waited: string[] = [];
    const reading = readRawBody(req, 1024 * 1024, { bytes: 1000, wait: () => (waited.push('gate'), new Promise<void>((resolve) => (open = resolve))) });
    req.write(Buffer.alloc(600, 'a'));
    req.write(Buffer.alloc(600, 'b'));
    req.end(Buffer.alloc(600, 'c'));
    expect(await settled(reading)).toBe(false);
    expect(waited).toEqual(['gate']);
    open();
    const raw = (await reading) as Buffer;
    expect(raw.toString()).toBe(`${'a'.repeat(600)}${'b'.repeat(600)}${'c'.repeat(600)}`);
  });

  it('waits at the gate before reading a byte when the declared size is over it, and never for a small body', async () => {
    const large = request({ 'content-length': '2000' });
    const waited: string[] = [];
    const reading = readRawBody(large, 1024 * 1024, { bytes: 1000, wait: () => (waited.push('large'), new Promise<void>(() => undefined)) });
    large.end(Buffer.alloc(2000));
    expect(await settled(reading)).toBe(false);
    expect(waited).toEqual(['large']);
    const small = request({ 'content-length': '10' });
    const smallReading = readRawBody(small, 1024 * 1024, { bytes: 1000, wait: () => (waited.push('small'), Promise.resolve()) });
    small.end(Buffer.alloc(10));
    await expect(smallReading).resolves.toHaveLength(10);
    expect(waited).toEqual(['large']);
  });
});
