export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  overallRate?: number;
}) => Promise<AutocannonResult>;

// autocannon ships no types; its promise API is this one call.
const autocannon = require('autocannon') as Autocannon;

/** One autocannon run (keep-alive connections, no pipelining); `rate`: requests per second in all, else as fast as answered. */
export async function load(url: string, options: { connections: number; seconds: number; headers?: Record<string, string>; rate?: number }): Promise<LoadResult> {
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers, overallRate: options.rate });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
