import { bootApp } from '@flowgate/testing';

jest.setTimeout(60000);

describe('worker boot failures: one line, exit 1', () => {
  it.each([
    ['a malformed port', { WORKER_PORT: 'abc' }, /^worker: invalid configuration — WORKER_PORT: /],
    ["a queue's own variable", { LOG_RETENTION_DAYS: '0' }, /^worker: invalid configuration — LOG_RETENTION_DAYS: must be at least 1 day$/],
    ['an unreachable Redis', { REDIS_URL: 'redis://127.0.0.1:1' }, /^worker: Redis is not reachable at 127\.0\.0\.1:1 .*REDIS_URL$/],
  ])('%s', (_what, env, pattern) => {
    expect(bootApp('worker', { WORKER_PORT: '0', ...env })).toEqual({ status: 1, lines: [expect.stringMatching(pattern)] });
  });
});
