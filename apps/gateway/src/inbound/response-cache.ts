import {
  RESPONSE_CACHE_GET_LUA,
  RESPONSE_CACHE_SET_LUA,
  responseCacheBytesKey,
  responseCacheEntryKey,
  responseCacheLruKey,
  responseCacheSizesKey,
} from '@flowgate/contracts';
import type { Logger, RedisClient } from '@flowgate/platform';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { WarningLimiter } from '../warning-limiter';
import { NearAnswers } from './near-answers';

/** A route's `cache` setting as the hot path reads it. */
export interface RouteCache {
  ttlMs: number;
  varyQuery: boolean;
  /** Lower-cased header names. */
  varyHeaders: readonly string[];
  perKey: boolean;
}

export interface CachedAnswer {
  status: number;
  body: string;
  /** Seconds since it was stored (the `Age` header). */
  ageS: number;
}

/** Answers larger than this are not kept (a cache of large answers would hold few). */
export const MAX_CACHED_ANSWER_BYTES = 256 * 1024;

interface CacheCommands {
  fgCacheGet(entry: string, lru: string, nowMs: number): Promise<string | null>;
  fgCacheSet(entry: string, lru: string, sizes: string, bytes: string, value: string, ttlMs: number, nowMs: number, bound: number): Promise<number>;
}

/** Where one cached answer lives: the route (object) serving it, and what the answer varies by. */
export interface AnswerSlot {
  route: object;
  projectId: string;
  endpointId: string;
  version: number;
  variant: string;
}

/**
 * GET answers shared by every gateway through Redis (docs/inbound.md "Response caching"), with
 * the ones this gateway served lately also in its own memory (near-answers.ts). Best effort:
 * when Redis fails, a lookup is a miss and a store is skipped, so the flow runs as if nothing
 * were cached.
 */
export class ResponseCache {
  private readonly warning = new WarningLimiter(10_000);
  private readonly commands: CacheCommands;
  private readonly near: NearAnswers;

  constructor(
    redis: RedisClient,
    /** `PROJECT_MAX_CACHE_BYTES`: one project's entries at most. */
    private readonly projectMaxBytes: number,
    private readonly logger: Logger,
    /** `GATEWAY_ANSWER_CACHE_MB` in bytes: what this gateway keeps in its own memory. */
    nearMaxBytes: number,
  ) {
    this.near = new NearAnswers(nearMaxBytes);
    redis.defineCommand('fgCacheGet', { numberOfKeys: 2, lua: RESPONSE_CACHE_GET_LUA });
    redis.defineCommand('fgCacheSet', { numberOfKeys: 4, lua: RESPONSE_CACHE_SET_LUA });
    this.commands = redis as unknown as CacheCommands;
  }

  /** What the answer varies by: the query string, the named headers, the key (hashed for Redis: `entryKey`). */
  variantOf(cache: RouteCache, query: string, headers: IncomingHttpHeaders, keyId: string | null): string {
    let variant = cache.varyQuery ? query : '';
    for (const name of cache.varyHeaders) {
      const value = headers[name];
      variant += `\n${name}:${Array.isArray(value) ? value.join(', ') : (value ?? '')}`;
    }
    if (cache.perKey) variant += `\nkey:${keyId ?? ''}`;
    return variant;
  }

  /** The answer this gateway holds in its own memory, or null (then `lookup` asks Redis). */
  nearby(slot: AnswerSlot): CachedAnswer | null {
    return this.near.get(slot.route, nearKey(slot), Date.now());
  }

  async lookup(slot: AnswerSlot, ttlMs: number): Promise<CachedAnswer | null> {
    const now = Date.now();
    const key = entryKey(slot);
    let stored: string | null;
    try {
      stored = await this.commands.fgCacheGet(key, responseCacheLruKey(slot.projectId), now);
    } catch (error) {
      this.warn(error);
      return null;
    }
    if (stored === null) return null;
    const first = stored.indexOf('\n');
    const second = stored.indexOf('\n', first + 1);
    if (first === -1 || second === -1) return null;
    const storedAt = Number(stored.slice(first + 1, second));
    const status = Number(stored.slice(0, first));
    const body = stored.slice(second + 1);
    this.near.set(slot.route, nearKey(slot), status, body, storedAt, storedAt + ttlMs);
    return { status, body, ageS: Math.max(0, Math.floor((now - storedAt) / 1000)) };
  }

  /** Keeps a 2xx answer of at most MAX_CACHED_ANSWER_BYTES; never delays the answer. */
  store(slot: AnswerSlot, ttlMs: number, status: number, body: string): void {
    if (status < 200 || status > 299 || body.length > MAX_CACHED_ANSWER_BYTES) return;
    const now = Date.now();
    const key = entryKey(slot);
    this.near.set(slot.route, nearKey(slot), status, body, now, now + ttlMs);
    const { projectId } = slot;
    this.commands
      .fgCacheSet(
        key,
        responseCacheLruKey(projectId),
        responseCacheSizesKey(projectId),
        responseCacheBytesKey(projectId),
        `${status}\n${now}\n${body}`,
        ttlMs,
        now,
        this.projectMaxBytes,
      )
      .catch((error: unknown) => this.warn(error));
  }

  private warn(error: unknown): void {
    if (this.warning.due()) this.logger.warn({ err: error }, 'response cache unavailable (Redis?); flows run uncached');
  }
}

/** The entry's Redis key: the variant hashed, so that keys stay short whatever the query. */
function entryKey(slot: AnswerSlot): string {
  return responseCacheEntryKey(slot.projectId, slot.endpointId, slot.version, createHash('sha1').update(slot.variant).digest('base64url'));
}

/** The key of this gateway's own copy: endpoint ids are unique across projects. */
function nearKey(slot: AnswerSlot): string {
  return `${slot.endpointId}@${slot.version}\n${slot.variant}`;
}
