import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';

/** Outcome of the key script, kept for the RateLimit-* headers and the log event. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window frees a slot. */
  resetSeconds: number;
}

/**
 * The server's response class: carries what the request log needs (so the `finish` handler
 * is one shared function, not a closure per request) and the rate-limit headers.
 */
export class GatewayResponse extends ServerResponse<IncomingMessage> {
  /** `performance.now()` at arrival. */
  startedAt = 0;
  /** Wall clock at arrival (ms since epoch). */
  arrivalMs = 0;
  /** Set once the Host resolved to a project: only those requests are logged. */
  projectId: string | null = null;
  endpointId: string | null = null;
  keyId: string | null = null;
  /** Error code of the answer, null on success. */
  errorCode: string | null = null;
  /** The path requested, without the query string. */
  logPath = '';
  rateLimit: RateLimitState | null = null;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes a complete JSON answer in one corked write; adds RateLimit-* when the request was keyed. */
export function sendJson(res: GatewayResponse, status: number, body: string, extra?: OutgoingHttpHeaders): void {
  if (res.headersSent || res.writableEnded) return;
  const headers: OutgoingHttpHeaders = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) };
  const rl = res.rateLimit;
  if (rl !== null) {
    headers['ratelimit-limit'] = rl.limit;
    headers['ratelimit-remaining'] = rl.remaining;
    headers['ratelimit-reset'] = rl.resetSeconds;
  }
  if (extra !== undefined) Object.assign(headers, extra);
  res.writeHead(status, headers);
  res.end(body);
}
