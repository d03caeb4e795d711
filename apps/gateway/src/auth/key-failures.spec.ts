import type { IncomingMessage } from 'node:http';
import { clientAddress, type FailureCounter, KeyFailureThrottle } from './key-failures';

/** Redis's INCR + PEXPIRE, in memory, on the test's clock. */
function memoryCounter(now: () => number): FailureCounter {
  const counts = new Map<string, { count: number; until: number }>();
  return {
    async eval(_script, _keys, key, windowMs) {
      let entry = counts.get(key);
      if (entry === undefined || entry.until <= now()) counts.set(key, (entry = { count: 0, until: now() + windowMs }));
      entry.count += 1;
      return [entry.count, entry.until - now()];
    },
  };
}

const from = (address: string, forwarded?: string) => ({ socket: { remoteAddress: address }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

describe('KeyFailureThrottle', () => {
  let time = 1_000_000;
  const now = () => time;
  const make = (perMinute = 3) => new KeyFailureThrottle(memoryCounter(now), { perMinute, trustProxy: false }, now);

  it('answers the failure that goes over the limit with the wait, then refuses unknown keys from that address before any lookup', async () => {
    const throttle = make();
    for (let i = 0; i < 3; i++) expect(await throttle.failed(from('10.0.0.1'), 'project-a')).toBeNull();
    expect(await throttle.failed(from('10.0.0.1'), 'project-b')).toBe(60);
    expect(throttle.refusal(from('10.0.0.1'), 'project-c', 'fg_any')).toBe(60);
    expect(throttle.refusal(from('10.0.0.2'), 'project-c', 'fg_any')).toBeNull();
    time += 45_000;
    expect(throttle.refusal(from('10.0.0.1'), 'project-c', 'fg_any')).toBe(15);
    time += 15_000;
    expect(throttle.refusal(from('10.0.0.1'), 'project-c', 'fg_any')).toBeNull();
  });

  it('blocks a project guessed at from many addresses, but lets keys accepted lately through', async () => {
    const throttle = make();
    throttle.accepted('fg_known');
    for (let i = 0; i < 4; i++) await throttle.failed(from(`10.1.0.${i}`), 'project-a');
    expect(throttle.refusal(from('10.9.9.9'), 'project-a', 'fg_unknown')).toBeGreaterThan(0);
    expect(throttle.refusal(from('10.9.9.9'), 'project-a', 'fg_known')).toBeNull();
    expect(throttle.refusal(from('10.9.9.9'), 'project-b', 'fg_unknown')).toBeNull();
  });

  it('counts nothing and refuses nothing when Redis cannot answer', async () => {
    const throttle = new KeyFailureThrottle({ eval: () => Promise.reject(new Error('down')) }, { perMinute: 0, trustProxy: false }, now);
    expect(await throttle.failed(from('10.0.0.1'), 'p')).toBeNull();
    expect(throttle.refusal(from('10.0.0.1'), 'p', 'k')).toBeNull();
  });

  it('reads the address from the socket, or behind a proxy from the entry the proxy added last', () => {
    expect(clientAddress(from('10.0.0.1', '1.2.3.4'), false)).toBe('10.0.0.1');
    expect(clientAddress(from('10.0.0.1', 'forged, 203.0.113.9'), true)).toBe('203.0.113.9');
    expect(clientAddress(from('10.0.0.1'), true)).toBe('10.0.0.1');
  });
});
