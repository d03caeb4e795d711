import {
  REQUEST_LOG_BODY_MAX,
  REQUEST_LOG_HEADER_NAME_MAX,
  REQUEST_LOG_HEADER_VALUE_MAX,
  REQUEST_LOG_HEADERS_MAX,
  REQUEST_LOG_REDACTED,
  type SecretMasker,
} from '@flowgate/contracts';

/** What the request handler kept of a request for its log details. */
export interface RequestDetailsInput {
  /** `req.rawHeaders`: name, value, name, value, … as received. */
  rawHeaders: readonly string[];
  /** The body as read (null when it was not: a GET, a refusal before reading it). */
  body: Buffer | null;
  /** The answer's body size in bytes, or -1 when unknown. */
  responseBytes: number;
  /** The project's secret values; null when it has none. */
  masker: SecretMasker | null;
}

/** Headers that carry credentials: their values never reach the log. */
const REDACTED_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);
/** A presented key shorter than this is not looked for in other headers (it would redact by accident). */
const MIN_KEY_LENGTH = 8;
const REDACTED_JSON = JSON.stringify(REQUEST_LOG_REDACTED);
/** Bodies shown as text: JSON, forms, text, XML, JavaScript, GraphQL (and a body without a type). */
const TEXT_TYPE = /json|^text\/|x-www-form-urlencoded|xml|javascript|graphql/i;

/**
 * The `details` JSON of one request (`RequestLogDetails`, libs/contracts), written field by field
 * as `JSON.stringify` would write it. Runs once per request on the HTTP thread, when the answer
 * is out: a request without a body costs a pass over its few headers.
 */
export function requestDetailsJson(input: RequestDetailsInput): string {
  const { rawHeaders, masker } = input;
  const key = presentedKeyOf(rawHeaders);
  let headers = '';
  let contentType: string | undefined;
  const count = Math.min(rawHeaders.length, REQUEST_LOG_HEADERS_MAX * 2);
  for (let i = 0; i < count; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const value = rawHeaders[i + 1]!;
    if (name === 'content-type') contentType = value;
    const shown = REDACTED_HEADERS.has(name) || (key !== null && value.includes(key)) ? REDACTED_JSON : JSON.stringify(headerValue(masker, value));
    headers += `${i === 0 ? '' : ','}[${JSON.stringify(cut(name, REQUEST_LOG_HEADER_NAME_MAX))},${shown}]`;
  }
  if (contentType === undefined) contentType = contentTypeOf(rawHeaders, count);
  const { body } = input;
  let bodyText: string | null = null;
  let truncated = false;
  if (body !== null && body.length > 0 && (contentType === undefined || TEXT_TYPE.test(contentType))) {
    const prefix = bodyPrefix(body, masker, key);
    bodyText = prefix.text;
    truncated = prefix.truncated;
  }
  const responseBytes = input.responseBytes < 0 ? 'null' : String(input.responseBytes);
  return (
    `{"headers":[${headers}],"body":${bodyText === null ? 'null' : JSON.stringify(bodyText)}` +
    `,"body_bytes":${body === null ? 'null' : body.length},"body_truncated":${truncated},"response_bytes":${responseBytes}}`
  );
}

/** The bearer token of the request's Authorization header, to redact wherever else it appears. */
function presentedKeyOf(rawHeaders: readonly string[]): string | null {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 13 || name.toLowerCase() !== 'authorization') continue;
    const value = rawHeaders[i + 1]!.trim();
    const space = value.search(/\s/);
    const token = space === -1 ? value : value.slice(space).trim();
    return token.length >= MIN_KEY_LENGTH ? token : null;
  }
  return null;
}

/** Content-Type among the headers past the first REQUEST_LOG_HEADERS_MAX (which are not shown). */
function contentTypeOf(rawHeaders: readonly string[], from: number): string | undefined {
  for (let i = from; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'content-type') return rawHeaders[i + 1];
  return undefined;
}

/** Masked first (a value is never half shown), then cut. */
function headerValue(masker: SecretMasker | null, value: string): string {
  return cut(masker === null ? value : masker.text(value), REQUEST_LOG_HEADER_VALUE_MAX);
}

/** `text` cut to `max` characters, ending with `mark` when cut (never half a surrogate pair). */
function cut(text: string, max: number, mark = '…'): string {
  if (text.length <= max) return text;
  let end = max - mark.length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + mark;
}

/**
 * The first REQUEST_LOG_BODY_MAX characters of the body as UTF-8 text, with the presented key
 * and the project's secret values masked. Masking must see a value whole, so the text decoded
 * reaches the longest form the masker looks for past the cut (a character of the text is at most
 * 3 bytes), the masker stops at the cut, and a value across it is replaced whole. NUL characters
 * (which PostgreSQL's JSON does not store) read as U+FFFD.
 */
function bodyPrefix(body: Buffer, masker: SecretMasker | null, key: string | null): { text: string; truncated: boolean } {
  const window = 3 * (REQUEST_LOG_BODY_MAX + (masker === null ? 0 : masker.longestForm) + (key === null ? 0 : key.length));
  let end = Math.min(body.length, window);
  // Never decode half a character: back off to the start of the one the window cuts.
  if (end < body.length) while (end > 0 && (body[end]! & 0xc0) === 0x80) end -= 1;
  let text = body.toString('utf8', 0, end);
  if (key !== null && text.includes(key)) text = text.replaceAll(key, REQUEST_LOG_REDACTED);
  if (text.includes('\u0000')) text = text.replaceAll('\u0000', '\ufffd');
  const truncated = end < body.length || text.length > REQUEST_LOG_BODY_MAX;
  if (masker !== null) text = masker.text(text, REQUEST_LOG_BODY_MAX);
  return { text: cut(text, REQUEST_LOG_BODY_MAX, ''), truncated };
}
