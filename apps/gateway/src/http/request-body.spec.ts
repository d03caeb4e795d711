import { JSON_TOO_DEEP_MESSAGE, MAX_JSON_DEPTH } from '@flowgate/contracts';
import { formToObject, parseBody } from './request-body';

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
