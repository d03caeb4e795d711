/**
 * The latency histograms of request_log_rollups: log-spaced buckets, so that a percentile
 * read from a histogram is within 4 % of the exact value however wide the latencies spread
 * (a fixed-width histogram would need thousands of buckets for that). Bucket 0 holds what is
 * below LATENCY_MIN_MS; bucket b ≥ 1 covers [MIN · RATIO^(b-1), MIN · RATIO^b) ms. The
 * migration's `flowgate_latency_bucket` is the same function in SQL (a test compares them).
 */
export const LATENCY_MIN_MS = 0.01;
export const LATENCY_RATIO = 1.08;
export const LATENCY_MAX_BUCKET = 255;

/** A histogram as stored: bucket (as a string key, JSON) → count. */
export type LatencyHistogram = Record<string, number>;

export function latencyBucketOf(ms: number): number {
  if (ms < LATENCY_MIN_MS) return 0;
  return Math.min(LATENCY_MAX_BUCKET, 1 + Math.floor(Math.log(ms / LATENCY_MIN_MS) / Math.log(LATENCY_RATIO)));
}

/** The value a bucket stands for: its geometric middle (0 for bucket 0). */
export function latencyBucketValue(bucket: number): number {
  if (bucket <= 0) return 0;
  return LATENCY_MIN_MS * LATENCY_RATIO ** (bucket - 1) * Math.sqrt(LATENCY_RATIO);
}

/** Adds `from` into `into` (bucket by bucket) and returns `into`. */
export function addLatencyHistogram(into: Map<number, number>, from: LatencyHistogram): Map<number, number> {
  for (const key in from) {
    const bucket = Number(key);
    into.set(bucket, (into.get(bucket) ?? 0) + from[key]!);
  }
  return into;
}

/**
 * Nearest-rank percentiles (`ps` in 0..1) of a histogram, rounded to 0.001 ms; null for an
 * empty one. One walk over the buckets in order for all of them.
 */
export function latencyPercentiles(histogram: Map<number, number>, ps: readonly number[]): Array<number | null> {
  let total = 0;
  for (const count of histogram.values()) total += count;
  if (total === 0) return ps.map(() => null);
  const buckets = [...histogram.keys()].sort((a, b) => a - b);
  return ps.map((p) => {
    const rank = Math.max(1, Math.ceil(p * total));
    let seen = 0;
    for (const bucket of buckets) {
      seen += histogram.get(bucket)!;
      if (seen >= rank) return Math.round(latencyBucketValue(bucket) * 1000) / 1000;
    }
    return Math.round(latencyBucketValue(buckets.at(-1)!) * 1000) / 1000;
  });
}
