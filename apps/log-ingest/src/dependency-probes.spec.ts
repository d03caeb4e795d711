import { DependencyProbes } from './dependency-probes';

describe('DependencyProbes', () => {
  it('names each dependency up or down; one down makes the whole not ready', async () => {
    const probes = new DependencyProbes(
      { kafka: () => Promise.reject(new Error('ECONNREFUSED')), postgres: () => Promise.resolve() },
      { timeoutMs: 1000, cacheMs: 0 },
    );
    await expect(probes.check()).resolves.toEqual({ ready: false, checks: { kafka: 'down', postgres: 'up' } });
  });

  it('counts a probe that never answers as down after the timeout, and one that throws synchronously too', async () => {
    const probes = new DependencyProbes(
      {
        hung: () => new Promise(() => undefined),
        broken: () => {
          throw new Error('not connected');
        },
      },
      { timeoutMs: 20, cacheMs: 0 },
    );
    await expect(probes.check()).resolves.toEqual({ ready: false, checks: { hung: 'down', broken: 'down' } });
  });

  it('shares one round of probes between concurrent callers and reuses it within cacheMs', async () => {
    let calls = 0;
    let now = 0;
    const probes = new DependencyProbes({ kafka: async () => void calls++ }, { timeoutMs: 1000, cacheMs: 1000, now: () => now });
    const [first, second] = await Promise.all([probes.check(), probes.check()]);
    expect(first).toEqual({ ready: true, checks: { kafka: 'up' } });
    expect(second).toBe(first);
    now = 999;
    await probes.check();
    expect(calls).toBe(1);
    now = 1000;
    await probes.check();
    expect(calls).toBe(2);
  });
});
