/** The Logs page's filters as they live in the URL (`endpoint`, `status`, `method`, `range`, `environment`, `trigger`, `cache`). */
export interface LogFilters {
  endpoint: string;
  /** '' (any), a class (`4xx`) or a code (`404`). */
  status: string;
  method: string;
  range: RangeKey;
  /** Requests to the live address (default) or the preview address. */
  environment: Environment;
  /** What started the runs: '' (any), requests, schedules or MCP calls. */
  trigger: Trigger;
  /** Answers of cached routes: '' (any), served from the cache (`hit`) or by the flow (`miss`). */
  cache: CacheOutcome;
}

export const CACHE_OUTCOMES = { '': 'Any', hit: 'Hit', miss: 'Miss' } as const;
export type CacheOutcome = keyof typeof CACHE_OUTCOMES;
const isCacheOutcome = (value: string | null): value is CacheOutcome => value !== null && value !== '' && value in CACHE_OUTCOMES;

export const TRIGGERS = { '': 'Any', http: 'HTTP', schedule: 'Schedule', mcp: 'MCP' } as const;
export type Trigger = keyof typeof TRIGGERS;
const isTrigger = (value: string | null): value is Trigger => value !== null && value !== '' && value in TRIGGERS;

export const ENVIRONMENTS = { live: 'Live', preview: 'Preview' } as const;
export type Environment = keyof typeof ENVIRONMENTS;

export const RANGES = {
  '1h': { label: 'Last hour', ms: 3_600_000 },
  '24h': { label: 'Last 24 hours', ms: 86_400_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 },
  '30d': { label: 'Last 30 days', ms: 30 * 86_400_000 },
} as const;
export type RangeKey = keyof typeof RANGES;
export const DEFAULT_RANGE: RangeKey = '24h';

export const STATUS_OPTIONS: Array<{ value: string; label: string }> = [
  { value: '', label: 'Any' },
  { value: '2xx', label: '2xx' },
  { value: '4xx', label: '4xx' },
  { value: '5xx', label: '5xx' },
  { value: '200', label: '200 OK' },
  { value: '400', label: '400 Bad Request' },
  { value: '401', label: '401 Unauthorized' },
  { value: '403', label: '403 Forbidden' },
  { value: '404', label: '404 Not Found' },
  { value: '429', label: '429 Too Many Requests' },
  { value: '500', label: '500 Internal Server Error' },
];
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const isRange = (value: string | null): value is RangeKey => value !== null && value in RANGES;

/** Unknown values in a shared or hand-edited URL fall back to "any" instead of breaking the page. */
export function filtersFrom(search: URLSearchParams): LogFilters {
  const status = search.get('status') ?? '';
  const method = (search.get('method') ?? '').toUpperCase();
  return {
    endpoint: search.get('endpoint') ?? '',
    status: /^([1-5]xx|[1-5]\d\d)$/.test(status) ? status : '',
    method: METHODS.includes(method) ? method : '',
    range: isRange(search.get('range')) ? (search.get('range') as RangeKey) : DEFAULT_RANGE,
    environment: search.get('environment') === 'preview' ? 'preview' : 'live',
    trigger: isTrigger(search.get('trigger')) ? (search.get('trigger') as Trigger) : '',
    cache: isCacheOutcome(search.get('cache')) ? (search.get('cache') as CacheOutcome) : '',
  };
}

/** The URL query of the filters; defaults are left out so a plain /logs stays plain. */
export function searchOf(filters: LogFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.endpoint.trim()) search.set('endpoint', filters.endpoint.trim());
  if (filters.status) search.set('status', filters.status);
  if (filters.method) search.set('method', filters.method);
  if (filters.range !== DEFAULT_RANGE) search.set('range', filters.range);
  if (filters.environment !== 'live') search.set('environment', filters.environment);
  if (filters.trigger) search.set('trigger', filters.trigger);
  if (filters.cache) search.set('cache', filters.cache);
  return search;
}

/** The API query of the filters (`from` = now − range). */
export function apiQuery(filters: LogFilters, now = Date.now()) {
  return {
    endpoint: filters.endpoint.trim() || undefined,
    status: filters.status || undefined,
    method: filters.method || undefined,
    environment: filters.environment,
    trigger: filters.trigger || undefined,
    cache: filters.cache || undefined,
    from: new Date(now - RANGES[filters.range].ms).toISOString(),
  };
}
