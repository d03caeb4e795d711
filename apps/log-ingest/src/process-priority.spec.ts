import { spawn } from 'node:child_process';
import { platform } from 'node:os';
import { resolve } from 'node:path';
import type { Logger } from '@flowgate/platform';
import { loadLogIngestConfig } from './config';
import { lowerOwnPriority, type PriorityControl } from './process-priority';

function fakeLogger() {
  const warnings: unknown[][] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(args), debug: () => undefined } as unknown as Logger;
  return { logger, warnings };
}

type FakeControl = PriorityControl & { nice: Record<number, number>; group: number | null };

/** Threads with a niceness each and an autogroup's; `set` fails for the ids in `refuse`. */
function fakeControl(nice: Record<number, number>, refuse: number[] = [], group: number | null = null): FakeControl {
  const control: FakeControl = {
    nice,
    group,
    get: (id) => nice[id]!,
    set: (id, value) => {
      if (refuse.includes(id)) throw new Error('EACCES: permission denied');
      nice[id] = value;
    },
    threads: () => Object.keys(nice).map(Number),
    getGroup: () => control.group,
    setGroup: (value) => {
      control.group = value;
    },
  };
  return control;
}

describe('LOG_INGEST_NICE', () => {
  it('defaults to 10, accepts 0 (unchanged) to 19, and names the variable otherwise', () => {
    expect(loadLogIngestConfig({}).nice).toBe(10);
    expect(loadLogIngestConfig({ LOG_INGEST_NICE: '0' }).nice).toBe(0);
    expect(loadLogIngestConfig({ LOG_INGEST_NICE: '19' }).nice).toBe(19);
    expect(() => loadLogIngestConfig({ LOG_INGEST_NICE: '20' })).toThrow('LOG_INGEST_NICE: must be 0–19');
    expect(() => loadLogIngestConfig({ LOG_INGEST_NICE: '-5' })).toThrow('LOG_INGEST_NICE: must be 0–19');
    expect(() => loadLogIngestConfig({ LOG_INGEST_NICE: 'low' })).toThrow('LOG_INGEST_NICE: must be a whole number');
  });
});

describe('lowerOwnPriority', () => {
  it('lowers every thread and the autogroup to the niceness asked for, and leaves one already nicer alone', () => {
    const control = fakeControl({ 100: 0, 101: 0, 102: 15 }, [], 0);
    lowerOwnPriority(10, fakeLogger().logger, control);
    expect(control.nice).toEqual({ 100: 10, 101: 10, 102: 15 });
    expect(control.group).toBe(10);
    const nicer = fakeControl({ 100: 0 }, [], 12);
    lowerOwnPriority(10, fakeLogger().logger, nicer);
    expect(nicer.group).toBe(12);
  });

  it('changes nothing at 0', () => {
    const control = fakeControl({ 100: 0 }, [], 0);
    lowerOwnPriority(0, fakeLogger().logger, control);
    expect(control.nice).toEqual({ 100: 0 });
    expect(control.group).toBe(0);
  });

  it('warns and carries on when the system refuses', () => {
    const { logger, warnings } = fakeLogger();
    expect(() => lowerOwnPriority(10, logger, fakeControl({ 100: 0 }, [100]))).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]![1])).toContain('LOG_INGEST_NICE');
  });

  (platform() === 'linux' ? it : it.skip)('renices the real process: every thread and its own autogroup end up at the niceness asked for', async () => {
    // In a child process of its own, so that the test runner keeps its priority.
    const script = `
      require(${JSON.stringify(resolve(__dirname, '../../../scripts/register-ts.js'))});
      const fs = require('node:fs');
      const { lowerOwnPriority } = require(${JSON.stringify(resolve(__dirname, 'process-priority.ts'))});
      lowerOwnPriority(19, { warn: (...a) => console.error(a), debug: () => {} });
      const nice = fs.readdirSync('/proc/self/task').map((t) => Number(fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[16]));
      const group = fs.existsSync('/proc/self/autogroup') ? Number(/ nice (-?\\d+)/.exec(fs.readFileSync('/proc/self/autogroup', 'utf8'))[1]) : 19;
      console.log(JSON.stringify({ nice, group }));
    `;
    // detached: a session (and autogroup) of its own, as `npm run up` starts log-ingest.
    const child = spawn(process.execPath, ['-e', script], { cwd: resolve(__dirname, '../../..'), detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((done) => child.on('close', done));
    expect(stderr).toBe('');
    const { nice, group } = JSON.parse(stdout) as { nice: number[]; group: number };
    expect(nice.length).toBeGreaterThan(1);
    expect(new Set(nice)).toEqual(new Set([19]));
    expect(group).toBe(19);
  });
});
