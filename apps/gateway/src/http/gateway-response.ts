import type { SecretMasker } from '@flowgate/contracts';
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';

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
  /** Error message of the answer, null on success. */
  errorMessage: string | null = null;
  /** The block that failed or the Return Error block that answered. */
  errorNodeId: string | null = null;
  /** The path requested, without the query string. */
  logPath = '';
  /** The raw query string without `?` ('' when none); the slice the router takes anyway. */
  logQuery = '';
  rateLimit: RateLimitState | null = null;
  /** Served on the preview address (`{subdomain}--preview.…`): logged as environment `preview`. */
  preview = false;
  /** The project's revision was checked for this request (request-handler.ts `serveFresh`). */
  freshnessChecked = false;
  /** Masks the project's secret values in the logged query; null when the project has none. */
  masker: SecretMasker | null = null;
  /** What started the request: an HTTP caller, or an MCP client's `tools/call` (mcp/mcp-route.ts). */
  trigger: 'http' | 'mcp' = 'http';
  /** Set on a cache miss of a cached route: keeps the flow's answer (http/flow-answer.ts). */
  cacheWrite: ((status: number, body: string) => void) | null = null;
  /** The answer is a stream of Server-Sent Events (http/stream-answer.ts): logged with `streamed`. */
  streamed = false;
  /** A cached route's answer: `hit` served from the response cache, `miss` by the flow (request-handler.ts `serveCached`). */
  cache: 'hit' | 'miss' | null = null;
  /** The request's body as read, for the log's details (request-log/request-details.ts); null when not read. */
  logBody: Buffer | null = null;
  /** Bytes of the answer's body (-1 until known), for the log's details. */
  responseBytes = -1;
  /** The body `sendJson` will end this response with at the end of the event-loop turn (bytes when large). */
  pendingBody: string | Buffer | null = null;
  /**
   * Told how long writing the answer took: an answer of `LARGE_ANSWER_CHARS` or more, or any
   * answer of a held-back request (`heldBack`). Set for a flow's answer
   * (isolation/flow-isolation.ts), which counts it as the project's loop time.
   */
  onWrite: ((res: GatewayResponse, ms: number) => void) | null = null;
  /**
   * The project was held to scheduled turns for this request (it took most of a busy loop:
   * isolation/loop-share.ts): the writing of its answer and its log record are owed to the rest
   * of the loop too, however small (isolation/flow-isolation.ts).
   */
  heldBack = false;
  /**
   * Asked, when the answer will close its connection with the request's body unread (see
   * `bodyUnread`), how many ms to hold it first: set for a project's requests
   * (isolation/flow-isolation.ts `holdUnreadClose`). The socket reads no further meanwhile
   * (the body is not consumed), so the sender is held back by TCP.
   */
  holdUnreadClose: ((res: GatewayResponse) => number) | null = null;
}

/** An answer this long takes the loop long enough to write (a 1 MiB answer: milliseconds) to be counted. */
export const LARGE_ANSWER_CHARS = 64 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Responses answered during one turn of the event loop, ended together right after it
 * (`setImmediate`): the answers leave in one burst of writes instead of one at a time between
 * the reads of the next requests. Measured under the benchmark's load, this cuts the HTTP
 * thread's CPU per request by about a quarter (37 µs instead of 52 µs): each write to a
 * loopback or LAN socket wakes the client's side, and a burst wakes it once. The delay is one
 * loop turn (microseconds when idle); an answer's content and headers are fixed when queued.
 */
let ending: GatewayResponse[] = [];
function endQueued(): void {
  const batch = ending;
  ending = [];
  for (const res of batch) endAnswer(res);
}

function endAnswer(res: GatewayResponse): void {
  const body = res.pendingBody!;
  res.pendingBody = null;
  if (res.destroyed) return;
  if (res.onWrite === null || (typeof body === 'string' && !res.heldBack)) res.end(body);
  else {
    const writing = performance.now();
    res.end(body);
    res.onWrite(res, performance.now() - writing);
  }
}

/**
 * Servers shutting down (gateway.ts `drain`): their answers say `Connection: close`, so a
 * caller does not send its next request on a connection that is about to be closed.
 */
export const drainingServers = new Set<unknown>();

/**
 * Whether the request announced a body that was not read: answered before it (a refusal, a
 * GET-only path, an unknown endpoint, a missing key), the connection is closed after the answer
 * instead of kept alive, for keeping it would mean reading the body to the end (Node discards it
 * byte by byte) before the next request: a refused body costs its headers and no more.
 */
export function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Queues a complete JSON answer (see `ending`); adds RateLimit-* when the request was keyed. */
export function sendJson(res: GatewayResponse, status: number, body: string, extra?: OutgoingHttpHeaders): void {
  if (res.headersSent || res.writableEnded) return;
  if (drainingServers.size !== 0 && drainingServers.has((res.socket as { server?: unknown } | null)?.server)) res.shouldKeepAlive = false;
  const unread = bodyUnread(res.req);
  if (unread) res.shouldKeepAlive = false;
  // A large answer is encoded here, once: Node writes a string of a megabyte several times
  // slower than its bytes (5 ms against 1 for a 1.2 MB answer, perf/JOURNAL.md), all of it in
  // one call that holds the loop.
  const payload = body.length < LARGE_ANSWER_CHARS ? body : Buffer.from(body);
  const bytes = typeof payload === 'string' ? Buffer.byteLength(body) : payload.length;
  res.responseBytes = bytes;
  const headers: OutgoingHttpHeaders = { 'content-type': JSON_TYPE, 'content-length': bytes };
  addRateLimitHeaders(res, headers);
  if (extra !== undefined) Object.assign(headers, extra);
  res.writeHead(status, headers);
  res.pendingBody = payload;
  const hold = unread && res.holdUnreadClose !== null ? res.holdUnreadClose(res) : 0;
  if (hold > 0) setTimeout(endAnswer, hold, res);
  else if (ending.push(res) === 1) setImmediate(endQueued);
}

/** RateLimit-* of a keyed request, added to the headers of its answer. */
export function addRateLimitHeaders(res: GatewayResponse, headers: OutgoingHttpHeaders): void {
  const rl = res.rateLimit;
  if (rl === null) return;
  headers['ratelimit-limit'] = rl.limit;
  headers['ratelimit-remaining'] = rl.remaining;
  headers['ratelimit-reset'] = rl.resetSeconds;
}
