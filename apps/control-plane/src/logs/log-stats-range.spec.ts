import { bucketCount, defaultInterval, rollupSlices, statsRange } from './log-stats-range';

const at = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

describe('stats range', () => {
  const now = at('2026-11-22T20:07:31.500Z');

  it('defaults to the last 24 hours, taken to whole minutes, in 15-minute buckets', () => {
    const range = statsRange({}, now);
    expect(range).toEqual({ fromMs: at('2026-11-21T20:07:00Z'), toMs: at('2026-11-22T20:08:00Z'), intervalS: 900 });
    if ('path' in range) throw new Error('unexpected');
    expect(bucketCount(range.fromMs, range.toMs, range.intervalS)).toBe(97);
  });

  it.each([
    [3_600_000, 60],
    [6 * 3_600_000, 300],
    [DAY, 900],
    [7 * DAY, 7200],
    [30 * DAY, 21600],
    [365 * DAY, 3 * 86400],
  ])('chooses an interval that fits a range of %d ms (a minute for an hour, 15 minutes for a day, at most 128 buckets)', (span, interval) => {
    expect(defaultInterval(now - span, now)).toBe(interval);
    expect(bucketCount(now - span, now, interval)).toBeLessThanOrEqual(128);
  });

  it.each([
    [{ from: '2026-11-22T10:00:00Z', to: '2026-11-22T09:00:00Z' }, 'from'],
    [{ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'from'],
    [{ from: '2026-11-01T00:00:00Z', to: '2026-11-22T00:00:00Z', interval: 60 }, 'interval'],
  ])('refuses %j naming %s', (input, path) => {
    expect(statsRange(input, now)).toMatchObject({ path });
  });

  it('reads whole hours from hourly rollups and the edges from minutes when buckets hold whole hours', () => {
    expect(rollupSlices({ fromMs: at('2026-11-01T10:07:00Z'), toMs: at('2026-11-03T08:30:00Z'), intervalS: 7200 })).toEqual([
      { spanS: 3600, fromMs: at('2026-11-01T11:00:00Z'), toMs: at('2026-11-03T08:00:00Z') },
      { spanS: 60, fromMs: at('2026-11-01T10:07:00Z'), toMs: at('2026-11-01T11:00:00Z') },
      { spanS: 60, fromMs: at('2026-11-03T08:00:00Z'), toMs: at('2026-11-03T08:30:00Z') },
    ]);
    expect(rollupSlices({ fromMs: at('2026-11-01T10:07:00Z'), toMs: at('2026-11-01T18:00:00Z'), intervalS: 600 })).toEqual([
      { spanS: 60, fromMs: at('2026-11-01T10:07:00Z'), toMs: at('2026-11-01T18:00:00Z') },
    ]);
  });
});
