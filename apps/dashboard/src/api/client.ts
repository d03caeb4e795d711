import { ApiError, type FieldProblem } from './api-error';
import type { Operations } from './generated/openapi';

/**
 * The one way the dashboard calls the control plane: `api('GET /v1/projects/{projectId}', {params})`.
 * The operation names, parameters, bodies and answers are the generated OpenAPI types, so a call
 * the control plane does not offer does not compile. The session is the HttpOnly `fg_session`
 * cookie (same origin through the /v1 proxy); a bearer token can be set instead (tests, tools).
 */
export type OperationId = keyof Operations;
type Op<K extends OperationId> = Operations[K];

type Options<K extends OperationId> = ([keyof Op<K>['params']] extends [never] ? { params?: undefined } : { params: Op<K>['params'] }) &
  ([Op<K>['body']] extends [never] ? { body?: undefined } : { body: Op<K>['body'] }) &
  ([Op<K>['query']] extends [never] ? { query?: undefined } : { query?: Op<K>['query'] }) & { signal?: AbortSignal };

let bearerToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** Sends `Authorization: Bearer <token>` on every call (null: rely on the session cookie). */
export function setBearerToken(token: string | null): void {
  bearerToken = token;
}

/** Called when a signed-in call answers 401 (the session ended): the app sends the user to /login. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

function pathOf(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`api: missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { code?: string; message?: string; details?: FieldProblem[] } | null;
  return new ApiError(
    response.status,
    body?.code ?? 'http_error',
    body?.message ?? `The server answered ${response.status}`,
    Array.isArray(body?.details) ? body.details : [],
  );
}

export async function api<K extends OperationId>(operation: K, ...[options]: Partial<Options<K>> extends Options<K> ? [Options<K>?] : [Options<K>]): Promise<Op<K>['response']> {
  const [method, template] = (operation as string).split(' ') as [string, string];
  const { params, body, query, signal } = (options ?? {}) as { params?: Record<string, string>; body?: unknown; query?: Record<string, unknown>; signal?: AbortSignal };
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (bearerToken) headers.authorization = `Bearer ${bearerToken}`;
  let response: Response;
  try {
    response = await fetch(pathOf(template, params) + queryString(query), {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (failure) {
    if (signal?.aborted) throw failure;
    throw new ApiError(0, 'network_error', 'The control plane cannot be reached. Check your connection and try again.');
  }
  if (!response.ok) {
    const error = await errorOf(response);
    // A failed sign-in is a 401 too; only a lost session sends the user to /login.
    if (response.status === 401 && !template.startsWith('/v1/auth/')) onUnauthorized?.();
    throw error;
  }
  // 204 No Content (DELETE of a secret) has no body to parse.
  if (response.status === 204) return undefined as Op<K>['response'];
  return (await response.json()) as Op<K>['response'];
}
