import { cronProblem, nextRuns } from '@flowgate/contracts';
import cronstrue from 'cronstrue';

/** The control plane's default SCHEDULE_MIN_INTERVAL_S: the browser checks what Save will check. */
const MIN_INTERVAL_S = 60;

const ALIASES: Record<string, string> = { '@hourly': '0 * * * *', '@daily': '0 0 * * *', '@weekly': '0 0 * * 0', '@monthly': '0 0 1 * *', '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *' };

export type CronReading =
  | { ok: true; words: string; next: Date[] }
  | { ok: false; field: 'cron' | 'timezone'; message: string };

/**
 * A cron in people's words ("every day at 09:00") and its next five runs in the time zone, by the
 * same rules and library (cron-parser) the control plane checks and schedules with.
 */
export function readCron(cron: string, timezone: string, now: Date = new Date()): CronReading {
  const problem = cronProblem(cron, timezone, MIN_INTERVAL_S);
  if (problem) return { ok: false, field: problem.field, message: `${problem.field === 'cron' ? 'The cron' : 'The time zone'} ${problem.message.replace(/^"/, '“').replace(/" is/, '” is')}.` };
  return { ok: true, words: cronWords(cron), next: nextRuns(cron, timezone, now, 5) };
}

/** "every day at 09:00", "every 5 minutes, Monday through Friday". */
export function cronWords(cron: string): string {
  const expression = ALIASES[cron.trim()] ?? cron.trim();
  const words = cronstrue.toString(expression, { use24HourTimeFormat: true, verbose: false });
  const [, , dayOfMonth, month, dayOfWeek] = expression.split(/\s+/);
  const daily = dayOfMonth === '*' && month === '*' && dayOfWeek === '*';
  // cronstrue reads a daily time as "At 09:00"; people say "every day at 09:00".
  if (daily && /^At \d/.test(words)) return `every day ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
  return `${words.charAt(0).toLowerCase()}${words.slice(1)}`;
}

/** "Fri 28 Nov 2026, 09:00" on the schedule's own clock. */
export function formatInZone(date: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: timezone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
}

/** The IANA time zones this browser knows, UTC first. */
export function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...known.filter((zone) => zone !== 'UTC')];
}

/** The browser's own time zone (a new schedule starts on it). */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
