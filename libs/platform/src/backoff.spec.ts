import { backoffMs } from './backoff';

describe('backoffMs', () => {
  it('doubles the first wait per further failure, up to the maximum', () => {
    expect([1, 2, 3, 4, 5].map((failures) => backoffMs(failures, { firstMs: 100, maxMs: 1000 }))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffMs(1000, { firstMs: 100, maxMs: 1000 })).toBe(1000);
  });

  it('with jitter, waits somewhere in the upper half of that', () => {
    const options = { firstMs: 200, maxMs: 5000, jitter: true };
    expect(backoffMs(3, { ...options, random: () => 0 })).toBe(400);
    expect(backoffMs(3, { ...options, random: () => 1 })).toBe(800);
    expect(backoffMs(50, { ...options, random: () => 1 })).toBe(5000);
  });
});
