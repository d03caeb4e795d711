/**
 * `GET /_images/<id>.png`: results of manipulate_image blocks, served from Redis on every
 * gateway (any Host, before project resolution). Owned by the integrations work.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedisClient } from '@flowgate/platform';
import { loadImageServing } from './flow-ports';

export function handleImageRequest(req: IncomingMessage, res: ServerResponse, redis: RedisClient): Promise<void> {
  // Loaded on the first image request; serving a stored image needs neither jimp nor the other adapters.
  const { RedisImageStore, serveStoredImage } = loadImageServing();
  return serveStoredImage(req, res, new RedisImageStore(redis));
}
