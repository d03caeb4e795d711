import { FairScheduler } from './fair-scheduler';

/** A scheduler on a hand-moved clock, whose deferred turns the test runs one at a time. */
function manual(costOf?: (tenant: string) => number, restShare?: () => number) {
  let now = 0;
  const turns: Array<() => void> = [];
  const delays: number[] = [];
  const scheduler = new FairScheduler({
    maxSliceMs: 10,
    defer: (next) => turns.push(next),
    delay: (next, ms) => {
      delays.push(ms);
      turns.push(next);
    },
    now: () => now,
    costOf,
    restShare,
  });
  return {
    scheduler,
    delays,
    advance: (ms: number) => (now += ms),
    /** Runs the pending turn of the loop, after `busyMs` of other work in it. */
    turn: async (busyMs: number) => {
      now += busyMs;
      turns.shift()?.();
      await Promise.resolve();
    },
  };
}

const never = new AbortController().signal;

describe('FairScheduler', () => {
  it('hands out slices as long as the rest of the loop took since the last one, within 1–10 ms', async () => {
    const { scheduler, turn } = manual();
    const granted: number[] = [];
    void scheduler.turn(never).then((ms) => granted.push(ms));
    await turn(4);
    void scheduler.turn(never).then((ms) => granted.push(ms));
    scheduler.sliceEnded();
    await turn(0.5);
    expect(granted).toEqual([4, 1]);
  });

  it('after a slice of 30 ms, starts the next no sooner than 30 ms after it ended', async () => {
    const { scheduler, advance, turn, delays } = manual();
    const granted: string[] = [];
    void scheduler.turn(never).then(() => granted.push('first'));
    await turn(1);
    void scheduler.turn(never).then(() => granted.push('second'));
    advance(30); // the granted run took 30 ms (one block that could not be cut)
    scheduler.sliceEnded();
    await turn(0.5);
    expect(granted).toEqual(['first']);
    expect(delays).toEqual([29.5]);
    await turn(29.5);
    expect(granted).toEqual(['first', 'second']);
  });

  it("counts a run's work after its slice (its answer) as the slice's: the next slice waits that much longer", async () => {
    const { scheduler, advance, turn, delays } = manual();
    const granted: string[] = [];
    void scheduler.turn(never).then(() => granted.push('first'));
    await turn(1);
    void scheduler.turn(never).then(() => granted.push('second'));
    advance(10);
    scheduler.sliceEnded();
    advance(2);
    scheduler.owe(12); // writing its 1 MiB answer took 12 ms, 2 ms after the slice ended
    await turn(0);
    expect(granted).toEqual(['first']);
    expect(delays).toEqual([20]); // the 8 ms the slice was still owed, and the 12 of the answer
    await turn(20);
    expect(granted).toEqual(['first', 'second']);
  });

  it('with a rest share of 2, starts the next slice no sooner than twice the last one after it ended, its answer too', async () => {
    let share = 2;
    const { scheduler, advance, turn, delays } = manual(undefined, () => share);
    const granted: string[] = [];
    void scheduler.turn(never).then(() => granted.push('first'));
    await turn(1);
    void scheduler.turn(never).then(() => granted.push('second'));
    advance(10);
    scheduler.sliceEnded(); // owed 20 ms
    scheduler.owe(3); // and 6 for an answer made outside the slice
    await turn(1);
    expect(delays).toEqual([25]);
    await turn(25);
    expect(granted).toEqual(['first', 'second']);
    void scheduler.turn(never).then(() => granted.push('third'));
    share = 1; // the requests beside it stopped: half of the loop again
    advance(10);
    scheduler.sliceEnded();
    await turn(1);
    expect(delays).toEqual([25, 9]);
  });

  it('tells whether long runs took turns lately: a slice of a millisecond or more ended', async () => {
    const { scheduler, advance, turn } = manual();
    expect(scheduler.longRunsTakingTurns(100)).toBe(false);
    void scheduler.turn(never);
    await turn(1);
    advance(0.05); // a turn of a few microseconds: not a long run
    scheduler.sliceEnded();
    expect(scheduler.longRunsTakingTurns(100)).toBe(false);
    void scheduler.turn(never);
    await turn(1);
    advance(5);
    scheduler.sliceEnded();
    advance(99);
    expect(scheduler.longRunsTakingTurns(100)).toBe(true);
    advance(2);
    expect(scheduler.longRunsTakingTurns(100)).toBe(false);
  });

  it("grants the next turn at the loop's next turn, not after a timer, when the last slice took microseconds", async () => {
    const { scheduler, advance, turn, delays } = manual();
    const granted: string[] = [];
    void scheduler.turn(never).then(() => granted.push('cheap 1'));
    void scheduler.turn(never).then(() => granted.push('cheap 2'));
    await turn(0.5);
    advance(0.03); // a held-back project's cheap run
    scheduler.sliceEnded();
    await turn(0);
    expect(granted).toEqual(['cheap 1', 'cheap 2']);
    expect(delays).toEqual([]);
  });

  it('owes nothing for less than a millisecond: the next turn is not made a timer for it', async () => {
    const { scheduler, turn, delays } = manual();
    const granted: string[] = [];
    scheduler.owe(0.2);
    void scheduler.turn(never).then(() => granted.push('next'));
    await turn(0);
    expect(granted).toEqual(['next']);
    expect(delays).toEqual([]);
  });

  it('sums what cheap turns and small work owe, and owes it once it reaches a millisecond', async () => {
    const { scheduler, advance, turn, delays } = manual(undefined, () => 2);
    const granted: string[] = [];
    for (let run = 1; run <= 4; run++) void scheduler.turn(never).then(() => granted.push(`cheap ${run}`));
    await turn(0.5);
    advance(0.125); // a held-back project's cheap run: owes 0.25 with a rest share of 2
    scheduler.sliceEnded();
    scheduler.owe(0.125); // writing its answer: 0.25 more
    await turn(0);
    advance(0.125);
    scheduler.sliceEnded();
    scheduler.owe(0.125); // a millisecond owed in all, from now
    expect(granted).toEqual(['cheap 1', 'cheap 2']);
    await turn(0); // the turn the second run's grant scheduled: too early, it waits out the rest
    expect(delays).toEqual([1]);
    await turn(1);
    expect(granted).toEqual(['cheap 1', 'cheap 2', 'cheap 3']);
    advance(0.125); // the sum starts again: this one owes nothing yet
    scheduler.sliceEnded();
    await turn(0);
    expect(granted).toEqual(['cheap 1', 'cheap 2', 'cheap 3', 'cheap 4']);
    expect(delays).toHaveLength(1);
  });

  it('drops a run whose signal fired while it waited', async () => {
    const { scheduler, turn } = manual();
    const controller = new AbortController();
    const granted: string[] = [];
    void scheduler.turn(controller.signal).then(() => granted.push('cancelled'));
    void scheduler.turn(never).then(() => granted.push('waiting'));
    controller.abort();
    await turn(1);
    expect(granted).toEqual(['waiting']);
    expect(scheduler.queued).toBe(0);
  });

  it("gives the next slice to the waiting tenant that consumed the least loop time, not the next in line", async () => {
    const consumed: Record<string, number> = { noisy: 500, quiet: 3 };
    const { scheduler, turn } = manual((tenant) => consumed[tenant] ?? 0);
    const granted: string[] = [];
    for (let run = 1; run <= 3; run++) void scheduler.turn(never, 'noisy').then(() => granted.push(`noisy ${run}`));
    void scheduler.turn(never, 'quiet').then(() => granted.push('quiet'));
    await turn(1);
    scheduler.sliceEnded();
    await turn(1);
    scheduler.sliceEnded();
    expect(granted).toEqual(['quiet', 'noisy 1']);
  });

  it('without costs, tenants take turns, each first come first served', async () => {
    const { scheduler, turn } = manual();
    const granted: string[] = [];
    for (const name of ['a 1', 'a 2', 'a 3']) void scheduler.turn(never, 'a').then(() => granted.push(name));
    for (const name of ['b 1', 'b 2']) void scheduler.turn(never, 'b').then(() => granted.push(name));
    for (let slice = 0; slice < 5; slice++) {
      await turn(1);
      scheduler.sliceEnded();
    }
    expect(granted).toEqual(['a 1', 'b 1', 'a 2', 'b 2', 'a 3']);
  });
});

