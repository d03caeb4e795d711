import type { IncomingMessage } from 'node:http';

/** One fixed window per counter: the count after this failure and the milliseconds left. */
const COUNT_FAILURE_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

/** What runs the counting script: the gateway's command client (single Redis or Cluster). */
export interface FailureCounter {
  eval(script: string, numKeys: number, key: string, windowMs: number): Promise<unknown>;
}

const WINDOW_MS = 60_000;
/** Local memory is bounded: past this many entries the oldest are dropped (an attacker rotating addresses cannot grow it). */
const MAX_REMEMBERED = 10_000;

/**
 * Wrong API keys, counted per client address and per project in Redis (shared by every
 * gateway, one fixed minute each: `fg:keyfail:addr:<address>`, `fg:keyfail:{<project>}`). A
 * counter past `perMinute` blocks its address or project on this gateway until the window
 * ends: a key not seen accepted here recently is then answered 429 with Retry-After before any
 * lookup (`refusal`), so guessing stops; a key accepted within the last minute still passes, so
 * a project's callers are not locked out by someone guessing at it. Only failed checks touch
 * Redis: the accepted path costs two Map reads.
 */
export class KeyFailureThrottle {
  private readonly blocked = new Map<string, number>();
  private readonly goodKeys = new Map<string, number>();

  constructor(
    private readonly counter: FailureCounter,
    private readonly options: { perMinute: number; trustProxy: boolean },
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait when this key may not be checked now; null when it may. */
  refusal(req: IncomingMessage, projectId: string, key: string): number | null {
    if (this.blocked.size === 0) return null;
    const address = clientAddress(req, this.options.trustProxy);
    const until = Math.max(this.blocked.get(addressKey(address)) ?? 0, this.blocked.get(projectKey(projectId)) ?? 0);
    const now = this.now();
    if (until <= now || (this.goodKeys.get(key) ?? 0) > now) return null;
    return Math.max(1, Math.ceil((until - now) / 1000));
  }

  /** The key was accepted: it is not a guess, whatever the counters say, for the next minute. */
  accepted(key: string): void {
    const now = this.now();
    // Renewed at most every half minute: the hot path of a busy key is one Map read.
    if ((this.goodKeys.get(key) ?? 0) - now > WINDOW_MS / 2) return;
    remember(this.goodKeys, key, now + WINDOW_MS);
  }

  /**
   * Counts a wrong key; resolves with the seconds to wait when this failure went over the limit
   * (the caller answers 429 instead of 401), else null. Without Redis nothing is counted.
   */
  async failed(req: IncomingMessage, projectId: string): Promise<number | null> {
    const address = clientAddress(req, this.options.trustProxy);
    const counts = await Promise.all([this.count(addressKey(address)), this.count(projectKey(projectId))]).catch(() => []);
    let wait: number | null = null;
    for (const [key, count, ttlMs] of counts) {
      if (count <= this.options.perMinute) continue;
      remember(this.blocked, key, this.now() + ttlMs);
      wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(ttlMs / 1000)));
    }
    return wait;
  }

  private async count(key: string): Promise<[string, number, number]> {
    const [count, ttlMs] = (await this.counter.eval(COUNT_FAILURE_LUA, 1, key, WINDOW_MS)) as [number, number];
    return [key, Number(count), Math.max(0, Number(ttlMs))];
  }
}

const addressKey = (address: string): string => `fg:keyfail:addr:${address}`;
const projectKey = (projectId: string): string => `fg:keyfail:{${projectId}}`;

function remember(map: Map<string, number>, key: string, until: number): void {
  map.delete(key);
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value!);
  map.set(key, until);
}

/** The addresses of the MCP clients whose tool calls this gateway sends itself (mcp-route.ts). */
const relayedAddresses = new WeakMap<IncomingMessage, string>();

/**
 * Takes `address` as the caller's address of `req`: the gateway's own call of an endpoint for an
 * MCP client (its path carried the process's secret token) comes from the loopback address, and
 * is counted as the client's, so one client's wrong keys never throttle every other client's.
 */
export function relayedFrom(req: IncomingMessage, address: string): void {
  relayedAddresses.set(req, address);
}

/**
 * The caller's address: the socket's peer, or behind a reverse proxy (GATEWAY_TRUST_PROXY) the
 * last X-Forwarded-For entry — the one the proxy itself added, which a client cannot forge —
 * or, for the gateway's own MCP tool calls, the MCP client's (relayedFrom).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const relayed = relayedAddresses.get(req);
  if (relayed !== undefined) return relayed;
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const list = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
    const last = list?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
}
