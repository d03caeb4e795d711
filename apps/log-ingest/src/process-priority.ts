import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { Logger } from '@flowgate/platform';

export interface PriorityControl {
  /** The niceness of a thread (0 = the calling one). */
  get(id: number): number;
  set(id: number, nice: number): void;
  /** Every thread of this process (Linux keeps a niceness per thread); [0] where they cannot be listed. */
  threads(): number[];
  /** The niceness of this process's autogroup (Linux), null where there is none or it is not ours alone. */
  getGroup(): number | null;
  setGroup(nice: number): void;
}

const AUTOGROUP = '/proc/self/autogroup';

const system: PriorityControl = {
  get: (id) => os.getPriority(id),
  set: (id, nice) => os.setPriority(id, nice),
  threads: () => {
    try {
      return readdirSync('/proc/self/task').map(Number);
    } catch {
      return [0];
    }
  },
  getGroup: () => {
    try {
      // Only a session we lead (`npm run up` and most supervisors start each app so): a session
      // led by another program — an interactive shell that ran us, say — holds that shell and
      // everything else it runs, which must not be slowed with us.
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const session = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
      if (session !== process.pid) return null;
      const match = / nice (-?\d+)/.exec(readFileSync(AUTOGROUP, 'utf8'));
      return match ? Number(match[1]) : null;
    } catch {
      return null;
    }
  },
  setGroup: (nice) => writeFileSync(AUTOGROUP, String(nice)),
};

/**
 * Lowers log-ingest's CPU priority to niceness `nice` (LOG_INGEST_NICE): nobody waits on its work
 * (rows become visible a little later), while a gateway on the same cores answers requests; a
 * large fetch decoded and copied in one go would otherwise take a core from it in a burst. Only
 * ever lowers the priority (raising it needs privilege), so a process started nicer stays so;
 * 0 leaves it as started. A refusal is a warning, never a reason not to start.
 * Every existing thread is reniced (Linux applies niceness per thread; threads started later
 * inherit it from the main thread), and so is the process's autogroup: with the kernel's
 * autogroups on (most desktop and server distributions), the scheduler first shares the CPU
 * between sessions and only then by niceness within one, and `npm run up` starts every app in
 * a session of its own — there a thread's niceness alone changes nothing against the gateway.
 */
export function lowerOwnPriority(nice: number, logger: Logger, control: PriorityControl = system): void {
  if (nice === 0) return;
  let changed = 0;
  try {
    for (const id of control.threads()) {
      if (control.get(id) >= nice) continue;
      control.set(id, nice);
      changed++;
    }
    const group = control.getGroup();
    if (group !== null && group < nice) control.setGroup(nice);
  } catch (error) {
    logger.warn({ err: error, nice }, 'could not lower log-ingest\'s CPU priority (LOG_INGEST_NICE); running at the priority it was started with');
    return;
  }
  if (changed > 0) logger.debug({ nice, threads: changed }, 'CPU priority lowered');
}
