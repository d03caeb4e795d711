import type { EndpointSettings, FlowRequest } from '@flowgate/flow-engine';
import { invalidRequest } from '../common/app-error';
import type { TestRunInput } from './dto/test-run.dto';

/** `/Orders/` → `/Orders`, as the gateway keys its routes. */
const normalised = (path: string): string => {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
};

/** The endpoint path a requested path reaches on the gateway (`/api/x` and `/x` alike), or null. */
function routedPath(path: string): string | null {
  let route = path;
  if (route.startsWith('/api/')) route = route.slice(4);
  else if (route === '/api') route = '/';
  try {
    return normalised(decodeURIComponent(route));
  } catch {
    return null;
  }
}

/**
 * The engine's view of a test request, built as the gateway builds a live one: the flow sees the
 * endpoint's path, the configured query parameters, lower-cased headers, and a body only for
 * POST/PUT/PATCH. A method or path the endpoint would not answer is refused, naming the field.
 */
export function flowRequestOf(input: TestRunInput['request'], settings: EndpointSettings): FlowRequest {
  const method = input.method ?? settings.method;
  if (method !== settings.method)
    throw invalidRequest(`The endpoint answers ${settings.method}, not ${method}`, [{ path: 'request.method', message: `must be ${settings.method}` }]);
  const endpointPath = normalised(settings.path);
  if (input.path !== undefined && routedPath(input.path.split('?')[0]!) !== endpointPath)
    throw invalidRequest(`${input.path} does not reach this endpoint (${endpointPath})`, [
      { path: 'request.path', message: `must be ${endpointPath} or /api${endpointPath}` },
    ]);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  const hasBody = method !== 'GET' && method !== 'DELETE' && input.body !== undefined && input.body !== null;
  // A live JSON call carries its media type; a flow reading it sees the same.
  if (hasBody && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  return {
    method,
    path: endpointPath,
    query: new URLSearchParams(input.query ?? {}),
    body: hasBody ? input.body : null,
    headers,
  };
}
