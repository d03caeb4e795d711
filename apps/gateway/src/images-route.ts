/**
 * `GET /_images/<id>.png`: results of manipulate_image blocks, served from Redis on every
 * gateway (any Host, before project resolution). Owned by the integrations work.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedisClient } from '@flowgate/platform';
import { loadIntegrations } from './flow-ports';

export function handleImageRequest(req: IncomingMessage, res: ServerResponse, redis: RedisClient): Promise<void> {
  // The adapters load on the first image request (see flow-ports.ts).
  const { RedisImageStore, serveStoredImage } = loadIntegrations();
  return serveStoredImage(req, res, new RedisImageStore(redis));
}
