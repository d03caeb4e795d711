/**
 * `GET /_images/<id>.png`: results of manipulate_image blocks, served from Redis on every
 * gateway (any Host, before project resolution). Owned by the integrations work.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RedisImageStore, serveStoredImage } from '@flowgate/integrations';
import type { Redis } from 'ioredis';

export function handleImageRequest(req: IncomingMessage, res: ServerResponse, redis: Redis): Promise<void> {
  return serveStoredImage(req, res, new RedisImageStore(redis));
}
