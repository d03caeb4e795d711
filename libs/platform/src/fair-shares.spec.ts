import { FairShares, ShareQueueFull, type Lease } from './fair-shares';

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Shares on a clock the test moves; `granted` lists who got a unit, in order. */
function shares(capacity: number, perTenant: number) {
  const clock = { ms: 0 };
  const pool = new FairShares({ capacity, perTenant, halfLifeMs: 1000, now: () => clock.ms });
  const granted: string[] = [];
  const leases: Lease[] = [];
  const ask = (tenant: string, signal?: AbortSignal) =>
    pool.acquire(tenant, signal).then((lease) => {
      granted.push(tenant);
      leases.push(lease);
      return lease;
    });
  return { pool, clock, granted, leases, ask };
}

describe('FairShares', () => {
  it('lets one tenant hold at most its share; another tenant gets a free unit at once', async () => {
    const { granted, ask } = shares(4, 2);
    for (let i = 0; i < 5; i++) void ask('noisy');
    void ask('quiet');
    await flush();
    expect(granted).toEqual(['noisy', 'noisy', 'quiet']);
  });

  it('gives a unit that comes free to the tenant that consumed the least, not to the next in line', async () => {
    const { clock, granted, ask } = shares(1, 1);
    const first = await ask('noisy');
    void ask('noisy');
    void ask('noisy');
    void ask('quiet');
    await flush();
    clock.ms = 500; // the noisy tenant held its unit 500 ms
    first.release();
    await flush();
    expect(granted).toEqual(['noisy', 'quiet']);
  });

  it('measures cost by time held: an expensive turn of one tenant weighs as much as many cheap ones of another', async () => {
    const { clock, granted, leases, ask } = shares(1, 1);
    await ask('heavy');
    for (let i = 0; i < 6; i++) void ask('heavy');
    for (let i = 0; i < 6; i++) void ask('cheap');
    // Each heavy turn holds the unit 100 ms, each cheap one 1 ms.
    while (granted.length < 8) {
      clock.ms += granted[granted.length - 1] === 'heavy' ? 100 : 1;
      leases[leases.length - 1]!.release();
      await flush();
    }
    // Turn by turn, the heavy tenant would have had every other unit; by cost, every cheap request goes first.
    expect(granted).toEqual(['heavy', 'cheap', 'cheap', 'cheap', 'cheap', 'cheap', 'cheap', 'heavy']);
  });

  it('counts units still held as consumed: a tenant holding long-running units waits behind one that holds none', async () => {
    const { clock, granted, ask } = shares(3, 3);
    await ask('noisy');
    await ask('noisy');
    const other = await ask('other');
    void ask('noisy'); // first in line
    void ask('quiet');
    clock.ms = 50; // the noisy tenant's two units have been held 50 ms each, and are still held
    other.release();
    await flush();
    expect(granted.slice(3)).toEqual(['quiet']);
  });

  it('takes a request whose signal fires out of the line, and refuses one beyond the waiting limit', async () => {
    const { pool, granted, ask } = shares(1, 1);
    const held = await ask('a');
    const abort = new AbortController();
    const leaving = ask('a', abort.signal);
    abort.abort(new Error('run ended'));
    await expect(leaving).rejects.toThrow('run ended');
    void ask('a');
    await expect(pool.acquire('a', undefined, 1)).rejects.toBeInstanceOf(ShareQueueFull);
    held.release();
    await flush();
    expect(granted).toEqual(['a', 'a']);
    expect(pool.waitingOf('a')).toBe(0);
  });
});
