import type { CachedAnswer } from './response-cache';

interface NearAnswer {
  /** The route object the answer was kept for: a reload of the project makes new ones. */
  owner: object;
  status: number;
  body: string;
  storedAt: number;
  expiresAt: number;
  bytes: number;
}

/** What an entry costs besides its body (key, object, map slot), for the bound. */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * The cached GET answers this gateway served lately, in its own memory, so that a hit costs no
 * Redis round trip (bench/inbound.bench.ts). An answer is tied to the route object of the
 * configuration it was kept under: when the gateway reloads the project (a deploy, rollback,
 * undeploy, secret change — anything it is told of), the route objects are new and every near
 * answer of the project stops matching, from the same moment the gateway runs the new flow.
 * So a near hit is never older than the flow the gateway would otherwise run, and never past
 * the answer's time to live. Bounded by `GATEWAY_ANSWER_CACHE_MB` (least recently used out first).
 */
export class NearAnswers {
  private readonly entries = new Map<string, NearAnswer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  get(owner: object, key: string, now: number): CachedAnswer | null {
    const entry = this.entries.get(key);
    if (entry === undefined) return null;
    this.entries.delete(key);
    if (entry.owner !== owner || entry.expiresAt <= now) {
      this.bytes -= entry.bytes;
      return null;
    }
    // Most recently used last: eviction takes from the front.
    this.entries.set(key, entry);
    return { status: entry.status, body: entry.body, ageS: Math.max(0, Math.floor((now - entry.storedAt) / 1000)) };
  }

  set(owner: object, key: string, status: number, body: string, storedAt: number, expiresAt: number): void {
    const bytes = body.length * 2 + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= previous.bytes;
    }
    this.entries.set(key, { owner, status, body, storedAt, expiresAt, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
