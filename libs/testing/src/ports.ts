import path from 'node:path';

// scripts/ is plain CommonJS outside the Nx projects: required by file name, typed by its declaration file.
type FreePortScript = typeof import('../../../scripts/lib/free-port');

/** A TCP port nothing listened on a moment ago (for test services and "unreachable" addresses). */
export const freePort: FreePortScript['freePort'] = () => (require(path.resolve(__dirname, '../../../scripts/lib/free-port.js')) as FreePortScript).freePort();

/** Whether a process of this id is still alive (signal 0 only checks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
