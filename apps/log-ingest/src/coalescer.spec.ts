import { Coalescer } from './coalescer';

function deferred() {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('Coalescer', () => {
  it('flushes the first item at once and groups what arrives while that flush runs', async () => {
    const gate = deferred();
    const flushed: number[][] = [];
    const coalescer = new Coalescer<number, number>(
      async (items) => {
        flushed.push(items);
        if (flushed.length === 1) await gate.promise;
        return items.map((n) => n * 10);
      },
      { maxInFlight: 1 },
    );
    const first = coalescer.submit(1);
    const rest = [coalescer.submit(2), coalescer.submit(3), coalescer.submit(4)];
    expect(flushed).toEqual([[1]]);
    gate.release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(flushed).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps a group within maxWeight', async () => {
    const gate = deferred();
    const flushed: number[][] = [];
    const coalescer = new Coalescer<number, void>(
      async (items) => {
        flushed.push(items);
        if (flushed.length === 1) await gate.promise;
        return items.map(() => undefined);
      },
      { maxInFlight: 1, maxWeight: 5, weight: (n) => n },
    );
    const all = [9, 2, 3, 1, 4].map((n) => coalescer.submit(n));
    gate.release();
    await Promise.all(all);
    expect(flushed).toEqual([[9], [2, 3], [1, 4]]);
  });

  it('rejects every item of a failed flush and carries on with the next', async () => {
    let calls = 0;
    const coalescer = new Coalescer<string, string>(
      async (items) => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return items;
      },
      { maxInFlight: 1 },
    );
    const failed = coalescer.submit('a');
    await expect(failed).rejects.toThrow('database down');
    await expect(coalescer.submit('b')).resolves.toBe('b');
  });

  it('runs up to maxInFlight flushes at once', async () => {
    const gate = deferred();
    let running = 0;
    let peak = 0;
    const coalescer = new Coalescer<number, void>(
      async (items) => {
        running += 1;
        peak = Math.max(peak, running);
        await gate.promise;
        running -= 1;
        return items.map(() => undefined);
      },
      { maxInFlight: 2 },
    );
    const all = [1, 2, 3].map((n) => coalescer.submit(n));
    expect(running).toBe(2);
    gate.release();
    await Promise.all(all);
    expect(peak).toBe(2);
  });

  describe('minIntervalMs', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    /** A coalescer paced at `minIntervalMs` that records the groups it flushes. */
    function paced(minIntervalMs: number) {
      const flushed: number[][] = [];
      const coalescer = new Coalescer<number, void>(
        async (items) => {
          flushed.push(items);
          return items.map(() => undefined);
        },
        { maxInFlight: 1, minIntervalMs },
      );
      return { coalescer, flushed };
    }

    it('flushes the first item at once, then at most one group per interval', async () => {
      const { coalescer, flushed } = paced(1000);
      const first = coalescer.submit(1);
      await first;
      const rest = [2, 3, 4].map((n) => coalescer.submit(n));
      await jest.advanceTimersByTimeAsync(999);
      expect(flushed).toEqual([[1]]);
      await jest.advanceTimersByTimeAsync(1);
      await Promise.all(rest);
      expect(flushed).toEqual([[1], [2, 3, 4]]);
    });

    it('flushes what waits at once after hurry() (shutdown)', async () => {
      const { coalescer, flushed } = paced(60_000);
      await coalescer.submit(1);
      const waiting = coalescer.submit(2);
      coalescer.hurry();
      await waiting;
      expect(flushed).toEqual([[1], [2]]);
      await coalescer.submit(3);
      expect(flushed).toEqual([[1], [2], [3]]);
    });
  });
});
