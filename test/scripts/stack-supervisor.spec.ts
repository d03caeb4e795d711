import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, waitUntil } from '@flowgate/testing';

const root = resolve(__dirname, '..', '..');
const processes = require(join(root, 'scripts', 'lib', 'processes')) as {
  startService(service: { name: string; command: string; args: string[]; readyUrl?: string }, env: NodeJS.ProcessEnv, options: { output: 'log' }): { pid: number };
  recordedPid(name: string): number | null;
  childPid(name: string): number | null;
  stopRecorded(names: string[], options?: { graceMs?: number }): Promise<string[]>;
  exitReason(name: string): string;
  logFile(name: string): string;
};

/** A small service: answers 200 on every path once it listens. */
const SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.argv[1]), '127.0.0.1', () => console.log('listening, pid ' + process.pid));`;

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('stack scripts: a service that dies is started again', () => {
  jest.setTimeout(120_000);
  const names: string[] = [];
  const newName = () => {
    const name = `test-supervised-${randomBytes(4).toString('hex')}`;
    names.push(name);
    return name;
  };
  afterAll(async () => {
    await processes.stopRecorded(names, { graceMs: 2000 });
    for (const name of names) for (const file of [processes.logFile(name), `${processes.logFile(name)}.1`]) rmSync(file, { force: true });
  });

  it('comes back after kill -9, says so in its log, and npm run down still stops it', async () => {
    const name = newName();
    const port = await freePort();
    const readyUrl = `http://127.0.0.1:${port}/readyz`;
    const supervisor = processes.startService({ name, command: process.execPath, args: ['-e', SERVER, String(port)], readyUrl }, process.env, { output: 'log' });
    // The supervisor restarts only a service it has seen ready (a start-up failure is reported instead).
    await waitUntil(() => readFileSync(processes.logFile(name), 'utf8').includes(`[supervisor] ${name} is ready`), (ready) => ready, 'the supervisor to see the service ready', { timeoutMs: 30_000 });
    expect(await answers(readyUrl)).toBe(true);
    const first = processes.childPid(name);
    expect(first).not.toBeNull();
    expect(first).not.toBe(supervisor.pid);

    process.kill(first!, 'SIGKILL');
    await waitUntil(async () => processes.childPid(name) !== first && (await answers(readyUrl)), (ready) => ready, 'a new process of the service to answer', { timeoutMs: 60_000 });
    const second = processes.childPid(name)!;
    expect(alive(first!)).toBe(false);
    expect(processes.recordedPid(name)).toBe(supervisor.pid);
    const log = readFileSync(processes.logFile(name), 'utf8');
    expect(log).toContain(`[supervisor] ${name} exited (SIGKILL); restarting it in 1 s (restart 1)`);
    expect(log).toContain(`[supervisor] ${name} started again (pid ${second})`);
    expect(log.match(/^listening, pid \d+$/gm)).toEqual([`listening, pid ${first}`, `listening, pid ${second}`]);

    expect(await processes.stopRecorded([name], { graceMs: 10_000 })).toEqual([name]);
    expect(alive(supervisor.pid)).toBe(false);
    expect(alive(second)).toBe(false);
    expect(await answers(readyUrl)).toBe(false);
  });

  it('does not restart a service that fails before it was ever ready, and reports its own reason', async () => {
    const name = newName();
    const port = await freePort();
    const supervisor = processes.startService(
      { name, command: process.execPath, args: ['-e', "console.error('gateway: invalid configuration — GATEWAY_PORT: must be a port number'); process.exit(3)"], readyUrl: `http://127.0.0.1:${port}/` },
      process.env,
      { output: 'log' },
    );
    await waitUntil(() => !alive(supervisor.pid) && processes.recordedPid(name) === null, (ready) => ready, 'the supervisor to give up', { timeoutMs: 30_000 });
    const log = readFileSync(processes.logFile(name), 'utf8');
    expect(log.match(/invalid configuration/g)).toHaveLength(1);
    expect(log).toContain(`[supervisor] ${name} exited (code 3) before it was ever ready; not restarting it`);
    expect(processes.exitReason(name)).toBe('gateway: invalid configuration — GATEWAY_PORT: must be a port number');
  });
});
