import type { IncomingMessage } from 'node:http';
import type { GatewayResponse } from './gateway-response';

/** Headers a browser app may read besides the CORS-safelisted ones. */
const EXPOSED = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';
const DEFAULT_ALLOW_HEADERS = 'authorization, content-type';
/** Seconds a browser may cache a preflight answer. */
const MAX_AGE = '600';

/**
 * The `Origin` header from the raw list (as `hostOf` does for Host), so that requests without
 * one cost a scan and nothing else.
 */
export function originOf(rawHeaders: string[]): string | undefined {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 6 && (name === 'Origin' || name === 'origin' || name.toLowerCase() === 'origin')) return rawHeaders[i + 1];
  }
  return undefined;
}

/**
 * Marks a response to a cross-origin request of a known project: every answer written later
 * (successes and errors alike, via `writeHead`) carries these. API keys are bearer tokens,
 * never cookies, so `*` is safe and credentials are never allowed.
 */
export function allowCrossOrigin(res: GatewayResponse): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-expose-headers', EXPOSED);
}

/** The method a preflight asks about; undefined for a plain OPTIONS (not a preflight). */
export function preflightMethod(req: IncomingMessage): string | undefined {
  const asked = req.headers['access-control-request-method'];
  return asked === undefined || asked === '' ? undefined : asked;
}

/** 204 for a preflight to a path serving `allow`; no key needed, nothing rate-limited. */
export function answerPreflight(req: IncomingMessage, res: GatewayResponse, allow: string): void {
  if (res.headersSent || res.writableEnded) return;
  const asked = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': allow,
    'access-control-allow-headers': asked === undefined || asked.trim() === '' ? DEFAULT_ALLOW_HEADERS : asked,
    'access-control-max-age': MAX_AGE,
    vary: 'Access-Control-Request-Headers',
  });
  res.end();
}
