import type { FlowPorts } from '@flowgate/flow-engine';
import { prepareFlow, type PreparedFlow } from '@flowgate/flow-engine';
import type { EndpointAuth, HttpMethod, PublishedProject, PublishedRoute } from '@flowgate/contracts';

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
  /** null when the published flow could not be prepared: the route answers 500 flow_error. */
  prepared: PreparedFlow | null;
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
  /** The copy being replaced: prepared flows of unchanged route versions are reused. */
  previous: LoadedProject | null;
  onRouteError(route: PublishedRoute, error: unknown): void;
}

export function loadProject(published: PublishedProject, options: LoadProjectOptions): LoadedProject {
  const previousRoutes = new Map<string, LoadedRoute>();
  if (options.previous) {
    for (const group of options.previous.routes.values()) {
      for (const method of METHODS) {
        const route = group[method];
        if (route) previousRoutes.set(`${route.endpointId}@${route.version}`, route);
      }
    }
  }
  const baseLevel: AuthLevel = published.require_auth ? 1 : 0;
  const routes = new Map<string, RouteGroup>();
  for (const route of published.routes) {
    const path = normaliseRoutePath(route.path);
    let group = routes.get(path);
    if (!group) {
      group = { GET: undefined, POST: undefined, PUT: undefined, PATCH: undefined, DELETE: undefined, allow: '', allowHeader: '' };
      routes.set(path, group);
    }
    if (!METHODS.includes(route.method)) continue;
    const reused = previousRoutes.get(`${route.endpoint_id}@${route.version}`);
    let prepared: PreparedFlow | null = reused?.prepared ?? null;
    if (!reused) {
      try {
        prepared = prepareFlow(route.compiled as Parameters<typeof prepareFlow>[0]);
      } catch (error) {
        options.onRouteError(route, error);
      }
    }
    const level = AUTH_LEVEL[route.auth] ?? 2;
    group[route.method] = {
      endpointId: route.endpoint_id,
      path,
      version: route.version,
      authLevel: level > baseLevel ? level : baseLevel,
      readsQuery: Array.isArray(route.query_params) && route.query_params.length > 0,
      prepared,
    };
  }
  for (const group of routes.values()) {
    const methods = METHODS.filter((method) => group[method]);
    group.allow = methods.join(', ');
    group.allowHeader = [...methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])), 'OPTIONS'].join(', ');
  }
  return {
    id: published.id,
    subdomain: published.subdomain.toLowerCase(),
    revision: published.revision,
    requireAuth: published.require_auth,
    baseLevel,
    routes,
    ports: options.ports,
  };
}

/** `/Orders/` → `/Orders`: one leading slash, no trailing slash (paths are case-sensitive). */
export function normaliseRoutePath(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  const trimmed = end === path.length ? path : path.slice(0, end);
  return trimmed.charCodeAt(0) === 47 ? trimmed : `/${trimmed}`;
}
