import { isWellFormedApiKey } from '@flowgate/contracts';
import type { Logger } from '@flowgate/platform';
import type { IncomingMessage } from 'node:http';
import type { AuthLevel } from '../config-cache/loaded-project';
import { sendError } from '../http/errors';
import type { GatewayResponse } from '../http/gateway-response';
import type { GatewayMetrics } from '../gateway.metrics';
import { WarningLimiter } from '../warning-limiter';
import type { ApiKeyVerifier } from './api-key-verifier';
import type { KeyFailureThrottle } from './key-failures';

const CHALLENGE = { 'www-authenticate': 'Bearer' };

/**
 * `Authorization: Bearer <key>` → the project's key, its permission and its rate limit.
 * Malformed keys are refused without a Redis call; everything else is one script call, unless
 * the caller's address or the project is over its wrong-key limit (key-failures.ts: 429 before
 * any lookup). Answers the error itself and resolves false when the request must stop.
 */
export class RequestAuthenticator {
  private readonly redisWarning = new WarningLimiter(10_000);

  constructor(
    private readonly keys: ApiKeyVerifier,
    private readonly metrics: GatewayMetrics,
    private readonly logger: Logger,
    private readonly failures: KeyFailureThrottle,
  ) {}

  async authenticate(req: IncomingMessage, res: GatewayResponse, projectId: string, level: AuthLevel): Promise<boolean> {
    const key = presentedKey(req, res);
    if (key === null || throttled(this.failures, req, res, projectId, key)) return false;
    let check;
    try {
      check = await this.keys.check(key, projectId, level === 2 ? 'admin' : 'user');
    } catch (error) {
      this.warnRedis(error);
      sendError(res, 'unavailable', 'API keys cannot be verified right now; retry shortly', { 'retry-after': '1' });
      return false;
    }
    if (check.outcome === 'invalid') {
      await refuseWrongKey(this.failures, req, res, projectId);
      return false;
    }
    this.failures.accepted(key);
    res.keyId = check.keyId;
    const resetSeconds = Math.max(0, Math.ceil(check.resetMs / 1000));
    res.rateLimit = { limit: check.limit, remaining: check.remaining, resetSeconds };
    if (check.outcome === 'rate_limited') {
      this.metrics.rateLimitedRequest();
      sendError(res, 'rate_limited', `Rate limit of ${check.limit} requests per minute exceeded`, {
        'retry-after': String(Math.max(1, resetSeconds)),
      });
      return false;
    }
    if (check.outcome === 'forbidden') {
      sendError(res, 'insufficient_permission', 'This endpoint needs an admin key');
      return false;
    }
    return true;
  }

  private warnRedis(error: unknown): void {
    if (this.redisWarning.due()) this.logger.warn({ err: error }, 'Redis unavailable: keyed requests answered 503');
  }
}

/** The well-formed key the request carries; null once a 401 (missing or malformed key) is answered. */
export function presentedKey(req: IncomingMessage, res: GatewayResponse): string | null {
  const key = bearerToken(req.headers.authorization);
  if (key === '') {
    sendError(res, 'missing_api_key', 'This endpoint needs an API key: send Authorization: Bearer <key>', CHALLENGE);
    return null;
  }
  if (key === null || !wellFormed(key)) {
    invalidKey(res);
    return null;
  }
  return key;
}

export function invalidKey(res: GatewayResponse): void {
  sendError(res, 'invalid_api_key', 'The API key is not valid', CHALLENGE);
}

/** True once a 429 is answered: the caller's address or the project is over its wrong-key limit, and this key is not one accepted lately. */
export function throttled(failures: KeyFailureThrottle, req: IncomingMessage, res: GatewayResponse, projectId: string, key: string): boolean {
  const wait = failures.refusal(req, projectId, key);
  if (wait !== null) tooManyWrongKeys(res, wait);
  return wait !== null;
}

/** A key no project record matched: counted, then 401 (429 when this one went over the limit). */
export async function refuseWrongKey(failures: KeyFailureThrottle, req: IncomingMessage, res: GatewayResponse, projectId: string): Promise<void> {
  const wait = await failures.failed(req, projectId);
  if (wait === null) invalidKey(res);
  else tooManyWrongKeys(res, wait);
}

function tooManyWrongKeys(res: GatewayResponse, waitSeconds: number): void {
  sendError(res, 'too_many_attempts', `Too many requests with wrong API keys; retry in ${waitSeconds} s`, { 'retry-after': String(waitSeconds) });
}

/** The key of `Bearer <key>` (scheme case-insensitive); '' when absent or empty; null for another scheme. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return '';
  const value = header.trim();
  if (value === '') return '';
  if (value.length < 6 || value.slice(0, 6).toLowerCase() !== 'bearer') return null;
  if (value.length === 6) return '';
  const code = value.charCodeAt(6);
  if (code !== 32 && code !== 9) return null;
  return value.slice(7).trim();
}

/** Keys recently found well formed (format and checksum depend on the text alone). */
const wellFormedKeys = new Set<string>();
const MAX_REMEMBERED = 10_000;

function wellFormed(key: string): boolean {
  if (wellFormedKeys.has(key)) return true;
  if (!isWellFormedApiKey(key)) return false;
  if (wellFormedKeys.size >= MAX_REMEMBERED) wellFormedKeys.clear();
  wellFormedKeys.add(key);
  return true;
}
