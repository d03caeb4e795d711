import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

jest.setTimeout(60000);

const root = resolve(__dirname, '..', '..', '..');

function boot(env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, ['scripts/run-ts.js', 'apps/worker/src/main.ts'], {
    cwd: root,
    env: { ...process.env, WORKER_PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 45000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe('worker boot failures: one line, exit 1', () => {
  it.each([
    ['a malformed port', { WORKER_PORT: 'abc' }, /^worker: invalid configuration — WORKER_PORT: /],
    ["a queue's own variable", { LOG_RETENTION_DAYS: '0' }, /^worker: invalid configuration — LOG_RETENTION_DAYS: must be at least 1 day$/],
    ['an unreachable Redis', { REDIS_URL: 'redis://127.0.0.1:1' }, /^worker: Redis is not reachable at 127\.0\.0\.1:1 .*REDIS_URL$/],
  ])('%s', (_what, env, pattern) => {
    const { status, stderr } = boot(env);
    expect(status).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  });
});
