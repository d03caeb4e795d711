import type { HttpMethod } from '@flowgate/flow-engine';
import { settingsOf, type EndpointSettingsDraft, type WorkshopDoc } from '../model/workshop-document';
import type { TestRunBody } from './test-run-types';

/** The `Test` panel's form, as typed (kept per endpoint between visits). */
export interface TestRequestForm {
  method: HttpMethod;
  path: string;
  /** One value per configured query parameter. */
  query: Record<string, string>;
  /** `name: value` per line. */
  headers: string;
  /** JSON text (POST, PUT, PATCH). */
  body: string;
  sendEmail: boolean;
}

export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
const storageKey = (endpointId: string) => `flowgate.test-request.${endpointId}`;

/** The endpoint's method and path, each query parameter at its default. */
export function defaultForm(settings: EndpointSettingsDraft): TestRequestForm {
  const query = Object.fromEntries(settings.query_params.filter((param) => param.key).map((param) => [param.key, param.default ?? '']));
  return { method: settings.method, path: settings.path, query, headers: '', body: '', sendEmail: false };
}

/**
 * The last request sent for this endpoint, fitted to the current settings: the endpoint's method,
 * a field for each configured parameter (the kept value, else the default). `Send emails for real`
 * is never kept: each run starts safe.
 */
export function loadForm(endpointId: string, settings: EndpointSettingsDraft): TestRequestForm {
  const fresh = defaultForm(settings);
  let kept: Partial<TestRequestForm> | null = null;
  try {
    kept = JSON.parse(localStorage.getItem(storageKey(endpointId)) ?? 'null') as Partial<TestRequestForm> | null;
  } catch {
    kept = null;
  }
  if (!kept || typeof kept !== 'object') return fresh;
  const query = { ...fresh.query };
  for (const key of Object.keys(query)) if (typeof kept.query?.[key] === 'string') query[key] = kept.query[key]!;
  return {
    ...fresh,
    path: typeof kept.path === 'string' && reaches(kept.path, settings.path) ? kept.path : fresh.path,
    query,
    headers: typeof kept.headers === 'string' ? kept.headers : '',
    body: typeof kept.body === 'string' ? kept.body : '',
  };
}

const withoutTrailingSlash = (path: string) => path.replace(/(.)\/+$/, '$1');

/** Whether a requested path reaches the endpoint at `endpointPath` on the gateway (`/x` and `/api/x` alike). */
export function reaches(path: string, endpointPath: string): boolean {
  const route = withoutTrailingSlash(path.startsWith('/api/') ? path.slice(4) : path);
  return route === withoutTrailingSlash(endpointPath);
}

/** The form's path after the endpoint moved from `before` to `after`: the same form (`/x` or `/api/x`), the new path. */
export function movedPath(path: string, before: string, after: string): string {
  if (!reaches(path, before)) return path;
  return path.startsWith('/api/') ? `/api${after}` : after;
}

export function saveForm(endpointId: string, form: TestRequestForm): void {
  try {
    localStorage.setItem(storageKey(endpointId), JSON.stringify({ path: form.path, query: form.query, headers: form.headers, body: form.body }));
  } catch {
    // Storage full or disabled: the form simply starts from the defaults next time.
  }
}

/** A logged request (Logs → `Replay in Workshop`): its path and query over the form's fields. */
export function replayForm(settings: EndpointSettingsDraft, logged: { method: string; endpoint: string; query: string }): TestRequestForm {
  const form = defaultForm(settings);
  const params = new URLSearchParams(logged.query);
  for (const key of Object.keys(form.query)) form.query[key] = params.get(key) ?? '';
  return { ...form, path: logged.endpoint || form.path };
}

type Parsed<T> = { ok: true; value: T } | { ok: false; field: 'Headers' | 'Body'; message: string };

export function parseHeaders(text: string): Parsed<Record<string, string>> {
  const headers: Record<string, string> = {};
  const lines = text.split('\n').map((line) => line.trim());
  for (const [index, line] of lines.entries()) {
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      return { ok: false, field: 'Headers', message: `Line ${index + 1}: write each header as "name: value"` };
    headers[name.toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { ok: true, value: headers };
}

/** The API body for this form and the editor's current (maybe unsaved) flow and settings. */
export function runBody(form: TestRequestForm, doc: WorkshopDoc): Parsed<TestRunBody> {
  const headers = parseHeaders(form.headers);
  if (!headers.ok) return headers;
  let body: unknown;
  if (BODY_METHODS.has(form.method) && form.body.trim()) {
    try {
      body = JSON.parse(form.body);
    } catch {
      return { ok: false, field: 'Body', message: 'The body is not valid JSON' };
    }
  }
  const query = Object.fromEntries(Object.entries(form.query).filter(([, value]) => value !== ''));
  const { kind: _kind, ...endpoint } = settingsOf(doc, 'endpoint');
  const settings = { ...endpoint, query_params: endpoint.query_params.map((param) => ({ key: param.key, default: param.default === '' ? null : param.default })) };
  return {
    ok: true,
    value: {
      flow: { nodes: doc.nodes, edges: doc.edges } as TestRunBody['flow'],
      settings,
      request: { method: form.method, path: form.path, query, headers: headers.value, body: body as Record<string, unknown> | undefined },
      send_email: form.sendEmail,
    },
  };
}
