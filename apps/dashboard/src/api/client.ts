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

export function pathOf(template: string, params: Record<string, string> = {}): string {
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
  const response = await send(method, pathOf(template, params) + queryString(query), {
    body: body === undefined ? undefined : JSON.stringify(body),
    contentType: body === undefined ? undefined : 'application/json',
    signal,
  });
  // 204 No Content (a deleted row) has no body to parse.
  return (response.status === 204 ? undefined : await response.json()) as Op<K>['response'];
}

/**
 * One request to the control plane with the session, answering the `Response` when it is 2xx and
 * throwing an `ApiError` otherwise: `api()` for JSON operations, and the few that send or answer
 * something else (a CSV file).
 */
export async function send(method: string, url: string, { body, contentType, signal }: { body?: RequestInit['body']; contentType?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (contentType) headers['content-type'] = contentType;
  if (bearerToken) headers.authorization = `Bearer ${bearerToken}`;
  let response: Response;
  try {
    response = await fetch(url, { method, headers, credentials: 'same-origin', body, signal });
  } catch (failure) {
    if (signal?.aborted) throw failure;
    throw new ApiError(0, 'network_error', 'The control plane cannot be reached. Check your connection and try again.');
  }
  if (!response.ok) {
    const error = await errorOf(response);
    // A failed sign-in is a 401 too; only a lost session sends the user to /login.
    if (response.status === 401 && !url.startsWith('/v1/auth/')) onUnauthorized?.();
    throw error;
  }
  return response;
}
