import { readdirSync, readFileSync } from 'node:fs';
import type { Pool } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';

/** USER_HZ: /proc reports CPU time in clock ticks of 1/100 s on Linux. */
const TICKS_PER_SECOND = 100;

/** The fields after `(comm)` of a /proc stat line; index 0 is field 3 (state). */
function statFields(file: string): string[] | null {
  try {
    const stat = readFileSync(file, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU seconds (user + system, fields 14–15) a process has used, summed over its threads
 * (`/proc/<pid>/task/<tid>/stat`), plus what threads that already exited used (the process's
 * own `/proc/<pid>/stat` counts them, the task files do not). NaN when the process is gone.
 */
export function processCpuSeconds(pid: number): number {
  const own = statFields(`/proc/${pid}/stat`);
  if (own === null) return NaN;
  return (Number(own[11]) + Number(own[12])) / TICKS_PER_SECOND;
}

/** CPU seconds of each live thread of `pid`, by thread id, with the thread's name. */
export function threadCpuSeconds(pid: number): Map<number, { name: string; seconds: number }> {
  const threads = new Map<number, { name: string; seconds: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(Number(tid), { name, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** The parent pid of a process (field 4), or null when it is gone. */
export function parentPid(pid: number): number | null {
  const fields = statFields(`/proc/${pid}/stat`);
  return fields === null ? null : Number(fields[1]);
}

/**
 * CPU seconds of a whole PostgreSQL server: the postmaster itself (fields 14–15), the children
 * it has reaped — backends and workers that exited, fields 16–17 (cutime, cstime) — and every
 * live child process (backends, checkpointer, WAL writer, autovacuum…). A backend that exits
 * between two readings moves from the last term to the second, so the difference of two
 * readings counts it once.
 */
export function postgresServerCpuSeconds(postmasterPid: number): number {
  const own = statFields(`/proc/${postmasterPid}/stat`);
  if (own === null) return NaN;
  let total = own.slice(11, 15).reduce((sum, field) => sum + Number(field), 0) / TICKS_PER_SECOND;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(`/proc/${entry}/stat`);
    if (fields !== null && Number(fields[1]) === postmasterPid) total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }
  return total;
}

/**
 * CPU seconds of the PostgreSQL backends connected to `pool`'s database, sampled every 500 ms
 * so that backends that come and go are counted from their first sample to their last; backends
 * of `excludeApplication` (a benchmark's own queries) are left out. Call the returned function to
 * stop sampling and get the total.
 */
export function sampleDatabaseBackends(pool: Pool, excludeApplication: string | null = null): () => Promise<number> {
  const seen = new Map<number, { first: number; last: number }>();
  const sample = async () => {
    const { rows } = await pool.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND ($1::text IS NULL OR application_name <> $1)',
      [excludeApplication],
    );
    for (const { pid } of rows) {
      const seconds = processCpuSeconds(pid);
      if (Number.isNaN(seconds)) continue;
      const entry = seen.get(pid);
      if (entry) entry.last = seconds;
      else seen.set(pid, { first: seconds, last: seconds });
    }
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await sample();
      await sleep(500);
    }
  })();
  return async () => {
    running = false;
    await loop;
    await sample();
    return [...seen.values()].reduce((sum, { first, last }) => sum + last - first, 0);
  };
}
