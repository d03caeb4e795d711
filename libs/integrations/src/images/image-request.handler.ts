import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_STATUS, errorBody, type ErrorCode } from '@flowgate/contracts';
import { IMAGE_ID_PATTERN, type ImageStore } from './image-store';

const PATH = /^\/_images\/([^/?#]+)\.png$/;

/** True when the request path is `/_images/<something>.png` (query string ignored). */
export function isImageRequestPath(url: string | undefined): boolean {
  return PATH.test((url ?? '').split('?')[0]);
}

/**
 * Serves `GET|HEAD /_images/<id>.png` from the image store. A result never changes once
 * stored, so it is cacheable as immutable until it expires.
 */
export async function serveStoredImage(req: IncomingMessage, res: ServerResponse, store: ImageStore): Promise<void> {
  const match = PATH.exec((req.url ?? '').split('?')[0]);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendError(res, 'method_not_allowed', 'Images answer GET and HEAD only', { allow: 'GET, HEAD' });
  }
  const id = match?.[1];
  const stored = id && IMAGE_ID_PATTERN.test(id) ? await store.get(id) : null;
  if (!id || !stored) return sendError(res, 'not_found', 'This image does not exist or has expired');

  const etag = `"${id}"`;
  const headers: Record<string, string> = {
    'content-type': 'image/png',
    'cache-control': stored.ttlSeconds === null ? 'public, max-age=86400, immutable' : `public, max-age=${stored.ttlSeconds}, immutable`,
    etag,
    'x-content-type-options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    return void res.end();
  }
  res.writeHead(200, { ...headers, 'content-length': String(stored.png.length) });
  res.end(req.method === 'HEAD' ? undefined : stored.png);
}

function sendError(res: ServerResponse, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(errorBody(code, message));
  res.writeHead(ERROR_STATUS[code], { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}
