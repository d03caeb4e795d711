import type { FlowPorts } from '@flowgate/flow-engine';
import { prepareFlow, secretsReadBy, type PreparedFlow } from '@flowgate/flow-engine';
import { routeInboundOf, type RouteInbound } from '../inbound/route-inbound';
import { NO_SECRETS, type EndpointAuth, type HttpMethod, type OpenedSecrets, type PublishedFunction, type PublishedProject, type PublishedRoute, type SecretMasker } from '@flowgate/contracts';

/** 0 = public, 1 = any key of the project, 2 = admin key. */
export type AuthLevel = 0 | 1 | 2;

const AUTH_LEVEL: Record<EndpointAuth, AuthLevel> = { none: 0, user: 1, admin: 2 };
export const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface LoadedRoute {
  endpointId: string;
  path: string;
  version: number;
  /** The endpoint's auth with the project's Require Authentication folded in. */
  authLevel: AuthLevel;
  /** False when the endpoint configures no query parameter: the query string is then never parsed. */
  readsQuery: boolean;
  /** The flow reads `{secrets.…}`: its requests first check that this copy is the newest (project-cache.ts `fresh`). */
  readsSecrets: boolean;
  /** null when the published flow could not be prepared: the route answers 500 flow_error. */
  prepared: PreparedFlow | null;
  /** Typed query, body schema, webhook signature; null when the route checks none of them. */
  inbound: RouteInbound | null;
}

/** All methods served at one path; fixed-shape so the lookup stays monomorphic. */
export interface RouteGroup {
  GET: LoadedRoute | undefined;
  POST: LoadedRoute | undefined;
  PUT: LoadedRoute | undefined;
  PATCH: LoadedRoute | undefined;
  DELETE: LoadedRoute | undefined;
  /** The methods of the endpoints here (CORS preflight answers, 405 messages). */
  allow: string;
  /** The `Allow` header of a 405 or an OPTIONS: with HEAD where GET is served, and OPTIONS. */
  allowHeader: string;
}

/** A project as the hot path uses it: built once per configuration load. */
export interface LoadedProject {
  id: string;
  subdomain: string;
  revision: number;
  requireAuth: boolean;
  /** Level needed when no route matched (Require Authentication hides which paths exist). */
  baseLevel: AuthLevel;
  /** Keyed by normalised path (`/orders`). */
  routes: Map<string, RouteGroup>;
  ports: FlowPorts;
  /** Masks the project's secret values in error messages and log details; null when it has none. */
  masker: SecretMasker | null;
  /**
   * What `{subdomain}--preview` serves: the saved drafts, every request keyed (any permission),
   * the preview values of secrets. null on the preview copy itself.
   */
  preview: LoadedProject | null;
}

export class InvalidPublicationError extends Error {
  override name = 'InvalidPublicationError';
}

/** Checks the shape the gateway relies on; the control plane is trusted for the rest. */
export function parsePublishedProject(raw: string): PublishedProject {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InvalidPublicationError('project publication is not JSON');
  }
  const p = value as Partial<PublishedProject> | null;
  if (
    p === null ||
    typeof p !== 'object' ||
    typeof p.id !== 'string' ||
    typeof p.subdomain !== 'string' ||
    typeof p.revision !== 'number' ||
    typeof p.require_auth !== 'boolean' ||
    !Array.isArray(p.routes)
  ) {
    throw new InvalidPublicationError('project publication lacks id, subdomain, revision, require_auth or routes');
  }
  return p as PublishedProject;
}

export interface LoadProjectOptions {
  ports: FlowPorts;
  /** The project's secrets, opened (default: none). */
  secrets?: OpenedSecrets;
  /** The copy being replaced: prepared flows of unchanged route versions are reused. */
  previous: LoadedProject | null;
  onRouteError(route: PublishedRoute, error: unknown): void;
  /** A published function that could not be prepared (its callers then fail). */
  onFunctionError?(fn: PublishedFunction, error: unknown): void;
}

export function loadProject(published: PublishedProject, options: LoadProjectOptions): LoadedProject {
  const secrets = options.secrets ?? NO_SECRETS;
  const functions = loadFunctions(published.functions ?? [], options.previous?.ports.functions, options.onFunctionError);
  const ports: FlowPorts = withFunctions(secrets.live.size === 0 ? options.ports : { ...options.ports, secrets: secrets.live }, functions);
  const baseLevel: AuthLevel = published.require_auth ? 1 : 0;
  const project: LoadedProject = {
    id: published.id,
    subdomain: published.subdomain.toLowerCase(),
    revision: published.revision,
    requireAuth: published.require_auth,
    baseLevel,
    routes: loadRoutes(published.routes, (auth) => higher(AUTH_LEVEL[auth] ?? 2, baseLevel), reusableRoutes(options.previous), options.onRouteError),
    ports,
    masker: secrets.masker,
    preview: null,
  };
  // Drafts are not versioned: prepared afresh on every load (a Save is a new document anyway).
  project.preview = {
    ...project,
    requireAuth: true,
    baseLevel: 1,
    // Any key of the project, whatever the endpoint's auth.
    routes: loadRoutes(published.preview_routes ?? [], () => 1, new Map(), options.onRouteError),
    ports: withFunctions(
      secrets.preview.size === 0 ? options.ports : { ...options.ports, secrets: secrets.preview },
      loadFunctions(published.preview_functions ?? [], undefined, options.onFunctionError),
    ),
  };
  return project;
}

/** Prepared function flows travel with the ports, so Call Function finds the ones of its own copy (live or preview). */
const withFunctions = (ports: FlowPorts, functions: ReadonlyMap<string, PreparedFlow>): FlowPorts => (functions.size === 0 ? ports : { ...ports, functions });

/**
 * The project's functions, prepared once per load (live versions reused from the copy being
 * replaced when unchanged, keyed by id and version; drafts, version 0, always afresh). One that
 * cannot be prepared is left out: its callers fail naming it.
 */
function loadFunctions(
  published: readonly PublishedFunction[],
  previous: ReadonlyMap<string, PreparedFlow> | undefined,
  onError: LoadProjectOptions['onFunctionError'],
): Map<string, PreparedFlow> {
  const functions = new Map<string, PreparedFlow>();
  for (const fn of published) {
    const reused = fn.version > 0 ? previous?.get(fn.function_id) : undefined;
    if (reused !== undefined && preparedVersions.get(reused) === fn.version) {
      functions.set(fn.function_id, reused);
      continue;
    }
    try {
      const prepared = prepareFlow(fn.compiled as Parameters<typeof prepareFlow>[0]);
      preparedVersions.set(prepared, fn.version);
      functions.set(fn.function_id, prepared);
    } catch (error) {
      onError?.(fn, error);
    }
  }
  return functions;
}

/** The version each prepared function flow was prepared from. */
const preparedVersions = new WeakMap<PreparedFlow, number>();

const higher = (a: AuthLevel, b: AuthLevel): AuthLevel => (a > b ? a : b);

/** Prepared flows of the copy being replaced, by endpoint and version: unchanged versions are reused. */
function reusableRoutes(previous: LoadedProject | null): Map<string, LoadedRoute> {
  const routes = new Map<string, LoadedRoute>();
  for (const group of previous?.routes.values() ?? []) {
    for (const method of METHODS) {
      const route = group[method];
      if (route) routes.set(`${route.endpointId}@${route.version}`, route);
    }
  }
  return routes;
}

function loadRoutes(
  published: readonly PublishedRoute[],
  levelOf: (auth: EndpointAuth) => AuthLevel,
  previousRoutes: ReadonlyMap<string, LoadedRoute>,
  onRouteError: LoadProjectOptions['onRouteError'],
): Map<string, RouteGroup> {
  const routes = new Map<string, RouteGroup>();
  for (const route of published) {
    const path = normaliseRoutePath(route.path);
    let group = routes.get(path);
    if (!group) {
      group = { GET: undefined, POST: undefined, PUT: undefined, PATCH: undefined, DELETE: undefined, allow: '', allowHeader: '' };
      routes.set(path, group);
    }
    if (!METHODS.includes(route.method)) continue;
    const reused = previousRoutes.get(`${route.endpoint_id}@${route.version}`);
    let prepared: PreparedFlow | null = reused?.prepared ?? null;
    let inbound: RouteInbound | null = reused?.inbound ?? null;
    if (!reused) {
      try {
        prepared = prepareFlow(route.compiled as Parameters<typeof prepareFlow>[0]);
        inbound = routeInboundOf(route);
      } catch (error) {
        prepared = null;
        onRouteError(route, error);
      }
    }
    group[route.method] = {
      endpointId: route.endpoint_id,
      path,
      version: route.version,
      authLevel: levelOf(route.auth),
      readsQuery: Array.isArray(route.query_params) && route.query_params.length > 0,
      // A signature is checked with a secret's newest value, as a flow reading it would be.
      readsSecrets: reused?.readsSecrets ?? (secretsReadBy(route.compiled).length > 0 || inbound?.signature != null),
      prepared,
      inbound,
    };
  }
  for (const group of routes.values()) {
    const methods = METHODS.filter((method) => group[method]);
    group.allow = methods.join(', ');
    group.allowHeader = [...methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])), 'OPTIONS'].join(', ');
  }
  return routes;
}

/** `/Orders/` → `/Orders`: one leading slash, no trailing slash (paths are case-sensitive). */
export function normaliseRoutePath(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  const trimmed = end === path.length ? path : path.slice(0, end);
  return trimmed.charCodeAt(0) === 47 ? trimmed : `/${trimmed}`;
}
