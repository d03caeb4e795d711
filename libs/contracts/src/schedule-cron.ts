import { CronExpressionParser } from 'cron-parser';

/** Aliases of whole-minute schedules that cron-parser reads as five fields. */
const ALIASES = new Set(['@hourly', '@daily', '@weekly', '@monthly', '@yearly', '@annually']);

/** How many consecutive runs the interval check looks at (a cron's gaps repeat within a day or a month). */
const INTERVAL_SAMPLE = 200;

export type CronProblem = { field: 'cron' | 'timezone'; message: string };

/** Whether `name` is an IANA time zone this Node knows (Intl throws a RangeError for others). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The problems of a schedule's clock: five fields (minute resolution) or an alias, a known IANA
 * time zone, and no two runs closer than `minIntervalS` seconds. Parsing and next times are
 * cron-parser's (the library BullMQ's job schedulers use, so the next runs shown are the ticks).
 */
export function cronProblem(cron: string, timezone: string, minIntervalS: number): CronProblem | null {
  if (!isTimeZone(timezone)) return { field: 'timezone', message: `"${timezone}" is not an IANA time zone name (e.g. UTC, Europe/Berlin)` };
  const expression = cron.trim();
  if (!ALIASES.has(expression) && expression.split(/\s+/).length !== 5)
    return { field: 'cron', message: 'must have five fields (minute hour day-of-month month day-of-week) or be @hourly, @daily, @weekly, @monthly or @yearly' };
  let runs: Date[];
  try {
    runs = nextRuns(expression, timezone, new Date(), INTERVAL_SAMPLE);
  } catch (error) {
    return { field: 'cron', message: `is not a valid cron expression (${error instanceof Error ? error.message : String(error)})` };
  }
  if (runs.length === 0) return { field: 'cron', message: 'never runs' };
  for (let i = 1; i < runs.length; i++) {
    const gapS = (runs[i]!.getTime() - runs[i - 1]!.getTime()) / 1000;
    if (gapS < minIntervalS) return { field: 'cron', message: `runs every ${gapS} s at times; a schedule may run at most once every ${minIntervalS} s (SCHEDULE_MIN_INTERVAL_S)` };
  }
  return null;
}

/** The next `count` run times after `from`, in `timezone`'s wall clock (DST changes included). */
export function nextRuns(cron: string, timezone: string, from: Date, count: number): Date[] {
  const expression = CronExpressionParser.parse(cron.trim(), { tz: timezone, currentDate: from });
  return expression.take(count).map((date) => date.toDate());
}
