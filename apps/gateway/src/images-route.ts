/**
 * `GET /_images/<id>.png`: results of manipulate_image blocks.
 *
 * Owned by the integrations work, which replaces this placeholder; the gateway only
 * dispatches `/_images/*` here (on any Host, before project resolution).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';

export async function handleImageRequest(_req: IncomingMessage, res: ServerResponse, _redis: Redis): Promise<void> {
  const body = JSON.stringify({ success: false, code: 'not_found', message: 'Image not found' });
  res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
