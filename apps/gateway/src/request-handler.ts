import { PREVIEW_SUFFIX, type SecretMasker } from '@flowgate/contracts';
import type { FlowRequest } from '@flowgate/flow-engine';
import { uuidV7, type Logger } from '@flowgate/platform';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AdminRoutes } from './admin/admin-routes';
import { relayedFrom } from './auth/key-failures';
import type { RequestAuthenticator } from './auth/request-authenticator';
import { normaliseRoutePath, type AuthLevel, type LoadedProject, type LoadedRoute, type RouteGroup } from './config-cache/loaded-project';
import type { ProjectCache } from './config-cache/project-cache';
import { allowCrossOrigin, answerPreflight, originOf, preflightMethod } from './http/cors';
import { internalError, refuseBody, sendError, sendErrorWithDetails } from './http/errors';
import { queryProblems } from './inbound/query-check';
import type { CachedAnswer, ResponseCache, RouteCache } from './inbound/response-cache';
import type { RouteInbound } from './inbound/route-inbound';
import { signatureProblem } from './inbound/webhook-signature';
import { bodyUnread, sendJson, type GatewayResponse } from './http/gateway-response';
import { hostHeaderOf } from './http/host-header';
import type { HostResolver } from './http/host-resolver';
import type { InternalRoutes } from './http/internal-routes';
import { OPENAPI_PATH, type OpenApiRoute } from './http/openapi-route';
import { MCP_CLIENT_HEADER, MCP_PATH, type McpRoute } from './mcp/mcp-route';
import { parseBody } from './http/request-body';
import type { GatewayMetrics } from './gateway.metrics';
import type { RequestLogSink } from './request-log/request-log-sink';
import { requestDetailsJson } from './request-log/request-details';
import { requestLogEventJson } from './request-log/request-log-json';
import { LARGE_BODY_BYTES, type FlowIsolation, type FlowToRun } from './isolation/flow-isolation';
import { WarningLimiter } from './warning-limiter';

export interface RequestHandlerDeps {
  hosts: HostResolver;
  cache: ProjectCache;
  auth: RequestAuthenticator;
  admin: AdminRoutes;
  internal: InternalRoutes;
  openApi: OpenApiRoute;
  logs: RequestLogSink;
  metrics: GatewayMetrics;
  logger: Logger;
  maxBodyBytes: number;
  /** Where every flow runs: the limits between projects (isolation/). */
  isolation: FlowIsolation;
  /** GET answers shared by every gateway (inbound/response-cache.ts). */
  responseCache: ResponseCache;
  /** The project's MCP server at `/_mcp` (mcp/mcp-route.ts). */
  mcp: McpRoute;
}

const MAX_LOGGED_PATH = 2048;
/** What a preflight to any path of the preview address is told may be sent there. */
const PREVIEW_PREFLIGHT_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const CLIENT_CLOSED_MESSAGE = 'The caller closed the connection before the answer was sent';
/** Read by the engine only for configured parameters; endpoints without any share this one. */
const NO_QUERY = new URLSearchParams();

/** The engine's view of a request: headers are built by node:http only if the flow reads them. */
class GatewayFlowRequest implements FlowRequest {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly body: unknown,
    private readonly req: IncomingMessage,
  ) {}

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }
}

/** What the path and method matched; `group`/`route` undefined → 404/405 (after auth if the project requires it). */
interface RouteMatch {
  project: LoadedProject;
  path: string;
  group: RouteGroup | undefined;
  route: LoadedRoute | undefined;
  query: string;
}

/**
 * The hot path: Host → project, route, method, key, body, flow, answer; one log event per
 * request to a known project once its last byte is out. No per-request closures on the
 * public path, no regular expressions, no framework.
 */
export class RequestHandler {
  private readonly onClose: (this: GatewayResponse) => void;
  private readonly lookupWarning = new WarningLimiter(10_000);

  constructor(private readonly deps: RequestHandlerDeps) {
    const record = (res: GatewayResponse): void => this.record(res);
    this.onClose = function onClose(this: GatewayResponse): void {
      record(this);
    };
  }

  readonly handle = (req: IncomingMessage, res: GatewayResponse): void => {
    res.startedAt = performance.now();
    res.arrivalMs = Date.now();
    const url = req.url ?? '/';
    if (url.charCodeAt(1) === 95 /* `/_` */ && this.deps.internal.handle(req, res, url)) return;
    res.on('close', this.onClose);
    const host = hostHeaderOf(req.rawHeaders);
    if (host === undefined || host === null) return refuseHost(res, host);
    let subdomain = this.deps.hosts.subdomainOf(host);
    if (subdomain === null) return projectNotFound(res);
    if (subdomain.endsWith(PREVIEW_SUFFIX)) {
      subdomain = subdomain.slice(0, -PREVIEW_SUFFIX.length);
      res.preview = true;
    }
    const project = this.deps.cache.peek(subdomain);
    if (project === null) return projectNotFound(res);
    if (project !== undefined) return this.serve(req, res, project, url);
    this.deps.cache.resolve(subdomain).then(
      (resolved) => (resolved === null ? projectNotFound(res) : this.serve(req, res, resolved, url)),
      (error: unknown) => {
        if (this.lookupWarning.due()) this.deps.logger.warn({ err: error }, 'project lookup failed (Redis unavailable?)');
        sendError(res, 'unavailable', 'The gateway cannot load this project right now; retry shortly', { 'retry-after': '1' });
      },
    );
  };

  /** `loaded` is the live copy; a request to the preview address is served by its `preview`. */
  private serve(req: IncomingMessage, res: GatewayResponse, loaded: LoadedProject, url: string): void {
    const project = res.preview ? (loaded.preview ?? loaded) : loaded;
    res.projectId = project.id;
    res.masker = project.masker;
    res.holdUnreadClose = this.deps.isolation.holdUnreadClose;
    const queryStart = url.indexOf('?');
    let path = queryStart === -1 ? url : url.slice(0, queryStart);
    const called = this.deps.mcp.calledPath(path);
    if (called !== undefined) {
      if (called === null) return sendError(res, 'endpoint_not_found', `No endpoint at ${path}`);
      path = called;
      res.trigger = 'mcp';
      const client = req.headers[MCP_CLIENT_HEADER];
      if (typeof client === 'string') relayedFrom(req, client);
    }
    res.logPath = path.length > MAX_LOGGED_PATH ? path.slice(0, MAX_LOGGED_PATH) : path;
    if (originOf(req.rawHeaders) !== undefined) allowCrossOrigin(res);
    if (req.method === 'OPTIONS' && preflightMethod(req) !== undefined) {
      // Preflights carry no key: on the preview address every path gets the same answer, so that
      // it tells nothing of which drafts exist (the request itself then needs a key).
      if (res.preview) return answerPreflight(req, res, PREVIEW_PREFLIGHT_METHODS);
      if (this.preflight(req, res, project, path)) return;
    }
    if (path === OPENAPI_PATH) return this.deps.openApi.handle(req, res, project);
    if (path === MCP_PATH) return this.deps.mcp.handle(req, res, project);
    if (path.startsWith('/admin/')) return this.answerAdmin(req, res, project, path);
    const routePath = routePathOf(path);
    const group = routePath === null ? undefined : project.routes.get(routePath);
    const route = group === undefined ? undefined : routeFor(group, req.method);
    if (route !== undefined) res.endpointId = route.endpointId;
    if ((res.preview || route?.readsSecrets === true) && !res.freshnessChecked) return this.serveFresh(req, res, loaded, url);
    const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
    res.logQuery = query;
    const match: RouteMatch = { project, path, group, route, query };
    const level = route === undefined ? project.baseLevel : route.authLevel;
    // A webhook sender has no key: its signature is checked first, on the raw body.
    if (route?.inbound?.signature != null && route.prepared !== null) {
      return void this.verifyThenDispatch(req, res, match, route, level).catch((error: unknown) => internalError(res, this.deps.logger, error));
    }
    if (level === 0) return this.dispatch(req, res, match);
    this.authenticateThenDispatch(req, res, match, level).catch((error: unknown) => internalError(res, this.deps.logger, error));
  }

  /**
   * Serves from the newest copy of the project (see ProjectCache.fresh): a secret replaced or a
   * draft saved is used from the next request on, on every gateway. Without Redis, the preview
   * refuses (as keyed requests do) and a live flow runs with the values it has.
   */
  private serveFresh(req: IncomingMessage, res: GatewayResponse, loaded: LoadedProject, url: string): void {
    res.freshnessChecked = true;
    this.deps.cache.fresh(loaded).then(
      (current) => (current === null ? projectNotFound(res) : this.serve(req, res, current, url)),
      (error: unknown) => {
        if (this.lookupWarning.due()) this.deps.logger.warn({ err: error }, 'project revision check failed (Redis unavailable?)');
        if (!res.preview) return this.serve(req, res, loaded, url);
        sendError(res, 'unavailable', 'The gateway cannot check this project right now; retry shortly', { 'retry-after': '1' });
      },
    );
  }

  /**
   * A CORS preflight to a path that serves something: 204 with its methods, before any key
   * check (browsers never send one) or rate limit. False for an unknown path, which is then
   * answered as any other request (404, or 401 under Require Authentication).
   */
  private preflight(req: IncomingMessage, res: GatewayResponse, project: LoadedProject, path: string): boolean {
    let allow: string | null | undefined;
    if (path.startsWith('/admin/')) allow = this.deps.admin.allowedMethods(path);
    else {
      const routePath = routePathOf(path);
      allow = routePath === null ? undefined : project.routes.get(routePath)?.allow;
    }
    if (allow === null || allow === undefined || allow === '') return false;
    answerPreflight(req, res, allow);
    return true;
  }

  /** A plain OPTIONS on the admin key API says what it serves; the rest is the admin routes' own. */
  private answerAdmin(req: IncomingMessage, res: GatewayResponse, project: LoadedProject, path: string): void {
    const allow = req.method === 'OPTIONS' ? this.deps.admin.allowedMethods(path) : null;
    if (allow === null) return this.deps.admin.handle(req, res, project, path);
    answerOptions(res, `${allow}, OPTIONS`);
  }

  private async authenticateThenDispatch(req: IncomingMessage, res: GatewayResponse, match: RouteMatch, level: AuthLevel): Promise<void> {
    if (await this.deps.auth.authenticate(req, res, match.project.id, level)) this.dispatch(req, res, match);
  }

  private dispatch(req: IncomingMessage, res: GatewayResponse, match: RouteMatch): void {
    const { group, route } = match;
    if (group === undefined) return sendError(res, 'endpoint_not_found', `No endpoint at ${match.path}`);
    if (route === undefined) {
      if (req.method === 'OPTIONS') return answerOptions(res, group.allowHeader);
      return sendError(res, 'method_not_allowed', `${match.path} accepts ${group.allow}`, { allow: group.allowHeader });
    }
    if (route.prepared === null) return sendError(res, 'flow_error', 'This endpoint could not be loaded; deploy it again');
    if (route.inbound?.query != null && queryRefused(res, route.inbound.query, match.query)) return;
    const method = req.method;
    if (route.inbound?.cache != null && !res.preview && (method === 'GET' || method === 'HEAD')) {
      return this.serveCached(req, res, match, route, route.inbound.cache);
    }
    try {
      const running =
        method === 'GET' || method === 'DELETE' || method === 'HEAD'
          ? this.run(req, res, match.project, route, match.query, null)
          : this.readBodyThenRun(req, res, match.project, route, match.query);
      running?.catch((error: unknown) => internalError(res, this.deps.logger, error));
    } catch (error) {
      internalError(res, this.deps.logger, error);
    }
  }

  private async readBodyThenRun(
    req: IncomingMessage,
    res: GatewayResponse,
    project: LoadedProject,
    route: LoadedRoute,
    query: string,
  ): Promise<void> {
    const { raw, release } = await this.deps.isolation.readBody(req, project.id, this.deps.maxBodyBytes);
    try {
      if (!Buffer.isBuffer(raw)) return refuseBody(res, raw.code, raw.message);
      res.logBody = raw;
      await this.runWithBody(req, res, project, route, query, raw);
    } finally {
      release();
    }
  }

  /**
   * A route with a webhook signature: the body is read and the signature checked before the key
   * (a sender has none), the query and the body's schema, or anything else.
   */
  private async verifyThenDispatch(req: IncomingMessage, res: GatewayResponse, match: RouteMatch, route: LoadedRoute, level: AuthLevel): Promise<void> {
    const check = route.inbound!.signature!;
    const { raw, release } = await this.deps.isolation.readBody(req, match.project.id, this.deps.maxBodyBytes);
    try {
      if (!Buffer.isBuffer(raw)) return refuseBody(res, raw.code, raw.message);
      res.logBody = raw;
      const secret = match.project.ports.secrets?.get(check.secret);
      const problem = secret === undefined ? `the signing secret ${check.secret} has no value` : signatureProblem(check, secret, raw, req.headers, Math.floor(Date.now() / 1000));
      if (problem !== null) return sendError(res, 'invalid_signature', `The webhook signature was refused: ${problem}`);
      if (level !== 0 && !(await this.deps.auth.authenticate(req, res, match.project.id, level))) return;
      if (route.inbound?.query != null && queryRefused(res, route.inbound.query, match.query)) return;
      const method = req.method;
      if (method === 'GET' || method === 'DELETE' || method === 'HEAD') return await this.run(req, res, match.project, route, match.query, null);
      await this.runWithBody(req, res, match.project, route, match.query, raw);
    } finally {
      release();
    }
  }

  /**
   * A cached GET: a hit answers without running the flow (after the key and its rate limit,
   * which hits count against); a miss runs it and keeps a 2xx answer. The preview address is
   * never cached (drafts change with every Save).
   */
  private serveCached(req: IncomingMessage, res: GatewayResponse, match: RouteMatch, route: LoadedRoute, cache: RouteCache): void {
    const responses = this.deps.responseCache;
    const slot = { route, projectId: match.project.id, endpointId: route.endpointId, version: route.version, variant: responses.variantOf(cache, match.query, req.headers, res.keyId) };
    const near = responses.nearby(slot);
    if (near !== null) return sendCached(res, near);
    responses
      .lookup(slot, cache.ttlMs)
      .then((hit) => {
        if (hit !== null) return sendCached(res, hit);
        res.cache = 'miss';
        res.cacheWrite = (status, body) => responses.store(slot, cache.ttlMs, status, body);
        return this.run(req, res, match.project, route, match.query, null);
      })
      .catch((error: unknown) => internalError(res, this.deps.logger, error));
  }

  /** Parses the body, checks it against the route's schema, runs the flow. */
  private async runWithBody(req: IncomingMessage, res: GatewayResponse, project: LoadedProject, route: LoadedRoute, query: string, raw: Buffer): Promise<void> {
    if (raw.length > LARGE_BODY_BYTES) {
      return await this.deps.isolation.runWithLargeBody(res, project.id, () => {
        const body = parseBody(raw, req.headers['content-type']);
        if (!body.ok) return void refuseBody(res, body.code, body.message);
        if (bodyRefused(res, route, body.value)) return undefined;
        return flowToRun(req, project, route, query, body.value);
      });
    }
    const body = parseBody(raw, req.headers['content-type']);
    if (!body.ok) return refuseBody(res, body.code, body.message);
    if (bodyRefused(res, route, body.value)) return;
    await this.run(req, res, project, route, query, body.value);
  }

  /** Answers within this call when the flow ran synchronously (no port call); else returns the pending answer. */
  private run(req: IncomingMessage, res: GatewayResponse, project: LoadedProject, route: LoadedRoute, query: string, body: unknown): Promise<void> | undefined {
    return this.deps.isolation.run(res, flowToRun(req, project, route, query, body));
  }

  /** Runs once per request (`close`): metrics, and the log event when the project is known. */
  private record(res: GatewayResponse): void {
    const now = performance.now();
    const durationMs = now - res.startedAt;
    const finished = res.writableFinished;
    const status = finished ? res.statusCode : 499;
    this.deps.metrics.observeRequest(status, durationMs);
    if (res.projectId === null) return;
    const json = requestLogEventJson({
      // Time-ordered: the Logs list (time, then id) shows requests of one millisecond in the order they ended.
      id: uuidV7(),
      projectId: res.projectId,
      endpointId: res.endpointId,
      path: res.logPath,
      method: res.req.method ?? 'GET',
      status,
      code: finished ? res.errorCode : 'client_closed_request',
      query: maskedQuery(res.masker, res.logQuery),
      message: finished ? res.errorMessage : CLIENT_CLOSED_MESSAGE,
      errorNodeId: res.errorNodeId,
      durationMs: Math.round(durationMs * 1000) / 1000,
      keyId: res.keyId,
      arrivalMs: res.arrivalMs,
      preview: res.preview,
      mcp: res.trigger === 'mcp',
      streamed: res.streamed,
      cache: res.cache,
      details: requestDetailsJson({ rawHeaders: res.req.rawHeaders, body: res.logBody, responseBytes: finished ? responseBytesOf(res) : -1, masker: res.masker }),
    });
    this.deps.logs.pushSerialized(json);
    if (res.heldBack) this.deps.isolation.chargeRecord(res.projectId, now);
  }
}


function flowToRun(req: IncomingMessage, project: LoadedProject, route: LoadedRoute, query: string, body: unknown): FlowToRun {
  const request = new GatewayFlowRequest(
    // HEAD answers as GET would: the flow sees GET.
    req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET'),
    route.path,
    route.readsQuery && query !== '' ? new URLSearchParams(query) : NO_QUERY,
    body,
    req,
  );
  return { projectId: project.id, flow: route.prepared!, ports: project.ports, request };
}

const VALIDATION_MESSAGE = 'The request does not match the inputs this endpoint accepts';

/** 400 validation_failed naming each `query.KEY` that is missing or of the wrong type. */
function queryRefused(res: GatewayResponse, params: NonNullable<RouteInbound['query']>, query: string): boolean {
  const problems = queryProblems(params, query === '' ? NO_QUERY : new URLSearchParams(query));
  if (problems === null) return false;
  sendErrorWithDetails(res, 'validation_failed', VALIDATION_MESSAGE, problems);
  return true;
}

/** 400 validation_failed naming each `body.…` path that does not match the route's body schema. */
function bodyRefused(res: GatewayResponse, route: LoadedRoute, body: unknown): boolean {
  const problems = route.inbound?.body?.(body) ?? null;
  if (problems === null) return false;
  sendErrorWithDetails(res, 'validation_failed', VALIDATION_MESSAGE, problems);
  return true;
}

/** What the answer's body measured: none for HEAD, 204 and 304; counted as it was written, else its Content-Length (-1 when neither). */
function responseBytesOf(res: GatewayResponse): number {
  if (res.req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return 0;
  if (res.responseBytes >= 0) return res.responseBytes;
  const length = res.getHeader('content-length');
  return typeof length === 'number' ? length : typeof length === 'string' && /^\d+$/.test(length) ? Number(length) : -1;
}

/** A caller may send a secret's value in the query; the log keeps it masked. */
const maskedQuery = (masker: SecretMasker | null, query: string): string => (masker === null || query === '' ? query : masker.text(query));

function refuseHost(res: GatewayResponse, host: undefined | null): void {
  sendError(res, 'invalid_request', host === null ? 'Send exactly one Host header' : 'Send a Host header naming the project');
}

/** A plain OPTIONS (not a CORS preflight) to a known path: what it serves, no body. */
function answerOptions(res: GatewayResponse, allow: string): void {
  if (res.headersSent || res.writableEnded) return;
  if (bodyUnread(res.req)) res.shouldKeepAlive = false;
  res.writeHead(204, { allow });
  res.end();
}

function projectNotFound(res: GatewayResponse): void {
  sendError(res, 'project_not_found', 'No project at this address');
}

/**
 * `/api/orders/` and `/orders` → `/orders`; percent-escapes decoded. null for a path no
 * endpoint can have (undecodable escapes).
 */
function routePathOf(path: string): string | null {
  let routePath = path;
  if (routePath.startsWith('/api/')) routePath = routePath.slice(4);
  else if (routePath === '/api') routePath = '/';
  if (routePath.indexOf('%') !== -1) {
    try {
      routePath = decodeURIComponent(routePath);
    } catch {
      return null;
    }
  }
  return normaliseRoutePath(routePath);
}

function routeFor(group: RouteGroup, method: string | undefined): LoadedRoute | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return group.GET;
    case 'POST':
      return group.POST;
    case 'PUT':
      return group.PUT;
    case 'PATCH':
      return group.PATCH;
    case 'DELETE':
      return group.DELETE;
    default:
      return undefined;
  }
}

/** A kept answer, as the flow once gave it. */
function sendCached(res: GatewayResponse, hit: CachedAnswer): void {
  res.cache = 'hit';
  sendJson(res, hit.status, hit.body, { 'x-cache': 'HIT', age: String(hit.ageS) });
}
