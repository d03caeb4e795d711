import { imageKey } from '@flowgate/contracts';
import type { RedisClient } from '@flowgate/platform';

/** Image ids are 128 random bits, base64url. */
export const IMAGE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export interface StoredImage {
  png: Buffer;
  /** Seconds until it expires; null when it does not expire. */
  ttlSeconds: number | null;
}

/**
 * Where `manipulate_image` results live until they expire. Redis by default (every gateway
 * reads the same store); an S3-compatible bucket with a lifecycle rule can implement the
 * same two calls.
 */
export interface ImageStore {
  put(id: string, png: Buffer, ttlSeconds: number): Promise<void>;
  get(id: string): Promise<StoredImage | null>;
}

/** `fg:image:<id>` → PNG bytes, with a TTL. */
export class RedisImageStore implements ImageStore {
  constructor(private readonly redis: RedisClient) {}

  async put(id: string, png: Buffer, ttlSeconds: number): Promise<void> {
    await this.redis.set(imageKey(id), png, 'EX', ttlSeconds);
  }

  async get(id: string): Promise<StoredImage | null> {
    const key = imageKey(id);
    const results = await this.redis.multi().getBuffer(key).ttl(key).exec();
    const png = results?.[0]?.[1] as Buffer | null | undefined;
    if (!png) return null;
    const ttl = results?.[1]?.[1] as number;
    return { png, ttlSeconds: ttl >= 0 ? ttl : null };
  }
}
