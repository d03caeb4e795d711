/**
 * The time arithmetic of GET …/logs/stats: the range taken to whole minutes (rollups are per
 * minute), the bucket width, and which rollup rows cover which part of the range.
 */
const MINUTE = 60_000;
const HOUR = 3_600_000;
export const DEFAULT_RANGE_MS = 24 * HOUR;
export const MAX_RANGE_MS = 400 * 24 * HOUR;
/**
 * Buckets of a default interval at most: the widths then fit the Logs page's ranges — a minute
 * for an hour, 15 minutes for a day, 2 hours for a week, 6 hours for 30 days.
 */
export const DEFAULT_MAX_BUCKETS = 128;
/** Buckets of an explicit interval at most (a day of minutes). */
export const MAX_BUCKETS = 1440;
/** Widths a chart reads well, in seconds; beyond them whole days. */
const NICE_INTERVALS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 21600, 43200, 86400];

export interface StatsRange {
  fromMs: number;
  toMs: number;
  intervalS: number;
}

export const floorTo = (ms: number, step: number): number => Math.floor(ms / step) * step;
export const ceilTo = (ms: number, step: number): number => Math.ceil(ms / step) * step;

/** Buckets are aligned to multiples of the interval since the epoch (as date_bin does), so the first may start before `from`. */
export function bucketCount(fromMs: number, toMs: number, intervalS: number): number {
  const width = intervalS * 1000;
  return Math.floor((toMs - 1) / width) - Math.floor(fromMs / width) + 1;
}

/** The narrowest readable width that gives at most DEFAULT_MAX_BUCKETS buckets. */
export function defaultInterval(fromMs: number, toMs: number): number {
  for (const interval of NICE_INTERVALS) if (bucketCount(fromMs, toMs, interval) <= DEFAULT_MAX_BUCKETS) return interval;
  let days = 2;
  while (bucketCount(fromMs, toMs, days * 86400) > DEFAULT_MAX_BUCKETS) days += 1;
  return days * 86400;
}

export type RangeProblem = { path: 'from' | 'to' | 'interval'; message: string };

/** The range to count, or what is wrong with the request. */
export function statsRange(input: { from?: string; to?: string; interval?: number }, now: number): StatsRange | RangeProblem {
  const to = input.to === undefined ? now : Date.parse(input.to);
  const from = input.from === undefined ? to - DEFAULT_RANGE_MS : Date.parse(input.from);
  if (from >= to) return { path: 'from', message: 'must be before to' };
  if (to - from > MAX_RANGE_MS) return { path: 'from', message: 'the range may span 400 days at most' };
  const fromMs = floorTo(from, MINUTE);
  const toMs = ceilTo(to, MINUTE);
  const intervalS = input.interval ?? defaultInterval(fromMs, toMs);
  if (bucketCount(fromMs, toMs, intervalS) > MAX_BUCKETS) return { path: 'interval', message: `gives more than ${MAX_BUCKETS} buckets for this range; choose a wider one` };
  return { fromMs, toMs, intervalS };
}

/** A part of the range and the rollup span that serves it. */
export interface RollupSlice {
  spanS: 60 | 3600;
  fromMs: number;
  toMs: number;
}

/**
 * Whole hours come from the hourly rollups when every bucket holds whole hours (the
 * interval is a multiple of an hour); the minutes at the edges, and everything for narrower
 * buckets, from the per-minute rollups. A 30-day chart reads ~720 rows instead of ~43,200.
 */
export function rollupSlices({ fromMs, toMs, intervalS }: StatsRange): RollupSlice[] {
  const hoursFrom = ceilTo(fromMs, HOUR);
  const hoursTo = floorTo(toMs, HOUR);
  if (intervalS % 3600 !== 0 || hoursFrom >= hoursTo) return [{ spanS: 60, fromMs, toMs }];
  const slices: RollupSlice[] = [{ spanS: 3600, fromMs: hoursFrom, toMs: hoursTo }];
  if (fromMs < hoursFrom) slices.push({ spanS: 60, fromMs, toMs: hoursFrom });
  if (hoursTo < toMs) slices.push({ spanS: 60, fromMs: hoursTo, toMs });
  return slices;
}
