import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep } from '@flowgate/contracts';
import type { IncomingMessage } from 'node:http';

export interface BodyFailure {
  ok: false;
  code: 'invalid_json' | 'payload_too_large' | 'unsupported_media_type' | 'invalid_request';
  message: string;
}
export type BodyOutcome = { ok: true; value: unknown } | BodyFailure;

const TOO_LARGE = (limit: number): BodyFailure => ({
  ok: false,
  code: 'payload_too_large',
  message: `Request body exceeds the limit of ${limit} bytes`,
});

/** Called once a body turns out large; reading waits (the socket is paused) until it resolves. */
export interface LargeBodyGate {
  /** Bytes above which a body is large. */
  bytes: number;
  wait(): Promise<void>;
}

/**
 * Reads the whole body up to `limit` bytes. A declared Content-Length above the limit is
 * refused before reading; a stream that grows past it is cut off. With a `gate`, a body that
 * declares more than `gate.bytes`, or grows past it, waits for the gate before reading on (its
 * socket paused: the sender is held back by TCP, nothing is buffered here). Never rejects.
 */
export function readRawBody(req: IncomingMessage, limit: number, gate?: LargeBodyGate): Promise<Buffer | BodyFailure> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(TOO_LARGE(limit));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let gated = gate === undefined;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    const passGate = (): void => {
      gated = true;
      req.pause();
      gate!.wait().then(
        () => req.resume(),
        () => req.resume(),
      );
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        resolve(TOO_LARGE(limit));
        return;
      }
      chunks.push(chunk);
      if (!gated && size > gate!.bytes) passGate();
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (): void => {
      cleanup();
      resolve({ ok: false, code: 'invalid_request', message: 'The request body could not be read' });
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
    if (!gated && declared !== undefined && Number(declared) > gate!.bytes) passGate();
  });
}

const TOO_DEEP: BodyFailure = { ok: false, code: 'invalid_json', message: JSON_TOO_DEEP_MESSAGE };

/**
 * JSON (and `+json`, and no Content-Type) is parsed; `x-www-form-urlencoded` becomes an
 * object (a repeated field becomes an array); `text/*` is parsed as JSON when it is JSON,
 * else kept as text. An empty body is null. A JSON body nested deeper than MAX_JSON_DEPTH is
 * refused before parsing (text/* keeps it as text), so that no later step overflows the stack.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): BodyOutcome {
  if (raw.length === 0) return { ok: true, value: null };
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === '' || mediaType === 'application/json' || mediaType.endsWith('+json')) {
    const text = raw.toString('utf8');
    if (jsonTooDeep(text)) return TOO_DEEP;
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false, code: 'invalid_json', message: 'The request body is not valid JSON' };
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded') return { ok: true, value: formToObject(raw.toString('utf8')) };
  if (mediaType.startsWith('text/')) {
    const text = raw.toString('utf8');
    if (jsonTooDeep(text)) return { ok: true, value: text };
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: true, value: text };
    }
  }
  return {
    ok: false,
    code: 'unsupported_media_type',
    message: 'Send the body as application/json or application/x-www-form-urlencoded',
  };
}

function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Own data properties only (Object.fromEntries), so a field named `__proto__` is just a field. */
export function formToObject(text: string): Record<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = fields.get(key);
    if (existing === undefined) fields.set(key, value);
    else if (Array.isArray(existing)) existing.push(value);
    else fields.set(key, [existing, value]);
  }
  return Object.fromEntries(fields);
}
