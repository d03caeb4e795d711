import { addLatencyHistogram, latencyBucketOf, latencyBucketValue, latencyPercentiles } from './latency-histogram';

describe('latency histogram', () => {
  it('reads every value back within 4 % through its bucket', () => {
    for (let ms = 0.0123; ms < 3_000_000; ms *= 1.013) {
      expect(Math.abs(latencyBucketValue(latencyBucketOf(ms)) - ms) / ms).toBeLessThan(0.04);
    }
  });

  it('puts what is below 0.01 ms in bucket 0, read as 0', () => {
    expect(latencyBucketOf(0)).toBe(0);
    expect(latencyBucketOf(0.0099)).toBe(0);
    expect(latencyBucketValue(0)).toBe(0);
  });

  it('gives nearest-rank percentiles of the buckets, null when empty', () => {
    const histogram = addLatencyHistogram(new Map(), { [latencyBucketOf(1)]: 90, [latencyBucketOf(50)]: 9 });
    addLatencyHistogram(histogram, { [latencyBucketOf(1000)]: 1 });
    const [p50, p95, p99, p100] = latencyPercentiles(histogram, [0.5, 0.95, 0.99, 1]);
    expect(p50).toBeCloseTo(1, 1);
    expect(Math.abs(p95! - 50) / 50).toBeLessThan(0.04);
    expect(Math.abs(p99! - 50) / 50).toBeLessThan(0.04);
    expect(Math.abs(p100! - 1000) / 1000).toBeLessThan(0.04);
    expect(latencyPercentiles(new Map(), [0.5])).toEqual([null]);
  });
});
