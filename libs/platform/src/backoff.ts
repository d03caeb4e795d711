/**
 * How long to wait before the next attempt after `failures` failures in a row: `firstMs`, doubled
 * per further failure, at most `maxMs`. With `jitter`, a random point in the upper half of that
 * (so replicas that failed together do not retry together). The apps' one exponential backoff:
 * request-log sends (gateway), PostgreSQL writes (log-ingest), restarts of the local stack's
 * services (scripts/lib/supervisor.js). Imported as
 * `@flowgate/platform/backoff` where the whole of @flowgate/platform is too much to load (the
 * gateway's request-log thread).
 */
export function backoffMs(failures: number, { firstMs, maxMs, jitter = false, random = Math.random }: BackoffOptions): number {
  const ceiling = Math.min(maxMs, firstMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
  return jitter ? Math.round(ceiling / 2 + (random() * ceiling) / 2) : ceiling;
}

export interface BackoffOptions {
  /** The wait after the first failure. */
  firstMs: number;
  maxMs: number;
  jitter?: boolean;
  /** For tests: the source of the jitter. */
  random?: () => number;
}
