// @ts-check
// Is a recorded pid still the process we started? `kill(pid, 0)` alone says yes for a zombie
// (a killed child nobody reaped yet: where PID 1 does not reap orphans, a `kill -9`-ed gateway
// stays one until the machine restarts) and for an unrelated process that reused the pid.
// On Linux /proc tells both apart: the state letter, and the start time (clock ticks since
// boot) recorded beside the pid. Elsewhere the plain signal check is all there is.
'use strict';

const fs = require('node:fs');

/**
 * The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses).
 * @param {number} pid
 * @returns {string[] | null}
 */
function statFields(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const hasProc = () => fs.existsSync('/proc/self/stat');

/**
 * True when `pid` runs (a zombie or a dead process does not).
 * @param {number} pid
 */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EPERM') return false;
  }
  if (!hasProc()) return true;
  const fields = statFields(pid);
  // fields[0] is the state: Z zombie, X dead.
  return fields !== null && fields[0] !== 'Z' && fields[0] !== 'X';
}

/**
 * When `pid` started, in clock ticks since boot (/proc/<pid>/stat field 22); null off Linux or when gone.
 * @param {number} pid
 * @returns {string | null}
 */
function startTimeOf(pid) {
  const fields = statFields(pid);
  return fields === null ? null : (fields[19] ?? null);
}

/**
 * True when `pid` runs and, if `startTime` was recorded, is still the process that started then.
 * @param {number} pid
 * @param {string | null} [startTime]
 */
function isSameProcess(pid, startTime) {
  if (!isAlive(pid)) return false;
  if (!startTime || !hasProc()) return true;
  return startTimeOf(pid) === startTime;
}

module.exports = { isAlive, startTimeOf, isSameProcess };
