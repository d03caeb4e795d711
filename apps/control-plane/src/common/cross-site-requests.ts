import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';

/** Methods a page of another site must not make the browser send with the session cookie. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `Sec-Fetch-Site` values of a request the dashboard's own page (or the user, typing a URL) made. */
const OWN_SITE = new Set(['same-origin', 'none']);

/**
 * CSRF defence for the cookie session: a state-changing request a browser sends without an
 * `Authorization` header (so the `fg_session` cookie is what authenticates it) must come from
 * the dashboard itself. Browsers say where a request comes from (`Sec-Fetch-Site`, `Origin`)
 * and pages cannot forge either; SameSite alone let a page of another port of the same host
 * (the same *site*) create an admin key (hostile-requests.int.spec.ts). Allowed: `Sec-Fetch-Site: same-origin` or
 * `none`, or an `Origin` listed in CONTROL_PLANE_CORS_ORIGINS or equal to the host the browser
 * addressed (`X-Forwarded-Host` from the dashboard's proxy, else `Host`). Requests with neither
 * header (curl, SDKs) are not a browser's and carry no ambient credentials worth stealing.
 */
export function refuseCrossSiteWrites(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method) || req.headers.authorization !== undefined) return next();
    const origin = req.headers.origin;
    if (origin !== undefined && (allowed.has(origin) || sameHost(origin, req))) return next();
    const site = req.headers['sec-fetch-site'];
    if (site === undefined ? origin === undefined : OWN_SITE.has(site)) return next();
    next(new AppError('forbidden', 'Cross-site request refused: this API accepts changes only from the Flowgate dashboard itself'));
  };
}

/** Is `origin` the host the browser sent the request to? */
function sameHost(origin: string, req: Request): boolean {
  const forwarded = req.headers['x-forwarded-host'];
  const host = (typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim() : undefined) || req.headers.host;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false; // "null" (sandboxed pages, file:) and other non-URLs
  }
}
