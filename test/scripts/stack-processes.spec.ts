import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitUntil } from '@flowgate/testing';

const root = resolve(__dirname, '..', '..');
const liveness = require(join(root, 'scripts', 'lib', 'liveness')) as {
  isAlive(pid: number): boolean;
  startTimeOf(pid: number): string | null;
  isSameProcess(pid: number, startTime?: string): boolean;
};
const processes = require(join(root, 'scripts', 'lib', 'processes')) as {
  startService(service: { name: string; command: string; args: string[] }, env: NodeJS.ProcessEnv, options: { output: 'log' }): { pid: number };
  recordedPid(name: string): number | null;
  stalePid(name: string): number | null;
  stopRecorded(names: string[], options?: { graceMs?: number }): Promise<string[]>;
  rotateLog(file: string): void;
  logFile(name: string): string;
};

const stateOf = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  } catch {
    return undefined;
  }
};

/**
 * Kills `pid` (our child) and returns while it is a zombie: Node reaps children on the next
 * event-loop turn, so until then, synchronously, it is exactly what a killed gateway nobody
 * reaped looks like (`kill(pid, 0)` still succeeds).
 */
function killAndSeeZombie(pid: number, check: () => void): void {
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + 5000;
  while (stateOf(pid) !== 'Z') if (Date.now() > deadline) throw new Error(`pid ${pid} never became a zombie`);
  expect(() => process.kill(pid, 0)).not.toThrow();
  check();
}

describe('stack scripts: is the recorded service still running?', () => {
  it('does not take a killed, unreaped process (a zombie) for a running one', () => {
    const child = spawn('sleep', ['30']);
    expect(liveness.isAlive(child.pid!)).toBe(true);
    killAndSeeZombie(child.pid!, () => expect(liveness.isAlive(child.pid!)).toBe(false));
  });

  it('does not take another process that reused the pid for the recorded one', () => {
    const started = liveness.startTimeOf(process.pid);
    expect(started).toMatch(/^\d+$/);
    expect(liveness.isSameProcess(process.pid, started!)).toBe(true);
    expect(liveness.isSameProcess(process.pid, String(Number(started) + 1))).toBe(false);
    // A pid file written before start times were recorded still works.
    expect(liveness.isSameProcess(process.pid)).toBe(true);
  });

  it('after a kill -9, a new start sees the service as gone and keeps the crashed run’s log as .log.1', async () => {
    const name = `test-service-${randomBytes(4).toString('hex')}`;
    const service = (word: string) => ({ name, command: 'sh', args: ['-c', `echo ${word}; exec sleep 30`] });
    try {
      const first = processes.startService(service('first-run-stack-trace'), process.env, { output: 'log' });
      expect(processes.recordedPid(name)).toBe(first.pid);
      await waitUntil(() => readFileSync(processes.logFile(name), 'utf8').includes('first-run'), (ready) => ready, 'the first run to write its log', { timeoutMs: 10_000, intervalMs: 50 });
      expect(processes.stalePid(name)).toBeNull();
      killAndSeeZombie(first.pid, () => {
        expect(processes.recordedPid(name)).toBeNull();
        expect(processes.stalePid(name)).toBe(first.pid);
      });

      const second = processes.startService(service('second-run'), process.env, { output: 'log' });
      expect(processes.recordedPid(name)).toBe(second.pid);
      await waitUntil(() => readFileSync(processes.logFile(name), 'utf8').includes('second-run'), (ready) => ready, 'the second run to write its log', { timeoutMs: 10_000, intervalMs: 50 });
      expect(readFileSync(`${processes.logFile(name)}.1`, 'utf8')).toBe('first-run-stack-trace\n');
      expect(readFileSync(processes.logFile(name), 'utf8')).toBe('second-run\n');
    } finally {
      await processes.stopRecorded([name], { graceMs: 2000 });
      rmSync(processes.logFile(name), { force: true });
      rmSync(`${processes.logFile(name)}.1`, { force: true });
    }
  });

  it('keeps one previous log generation and does not rotate an empty log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowgate-logs-'));
    const file = join(dir, 'gateway.log');
    try {
      processes.rotateLog(file);
      expect(existsSync(`${file}.1`)).toBe(false);
      writeFileSync(file, 'run 1\n');
      processes.rotateLog(file);
      writeFileSync(file, 'run 2\n');
      processes.rotateLog(file);
      expect(readFileSync(`${file}.1`, 'utf8')).toBe('run 2\n');
      expect(existsSync(file)).toBe(false);
      writeFileSync(file, '');
      processes.rotateLog(file);
      expect(readFileSync(`${file}.1`, 'utf8')).toBe('run 2\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
