import { randomUUID } from 'node:crypto';
import { RateMeter } from './log-ingest.metrics';
import { retryDelayMs } from './request-log.batch-processor';
import { isDataError, latestUsePerKey } from './request-log.repository';
import { makeEvent } from '@flowgate/testing';

describe('latestUsePerKey', () => {
  it('keeps the latest use of each key, whatever the order, and skips events without a key', () => {
    const [a, b] = [randomUUID(), randomUUID()].sort();
    const events = [
      makeEvent({ key_id: b, time: '2026-11-20T10:00:00.000Z' }),
      makeEvent({ key_id: a, time: '2026-11-20T10:00:05.000+01:00' }),
      makeEvent({ key_id: a, time: '2026-11-20T09:30:00.000Z' }),
      makeEvent({ key_id: null, time: '2026-11-21T00:00:00.000Z' }),
      makeEvent({ key_id: b, time: '2026-11-20T09:59:59.999Z' }),
    ];
    // 10:00:05+01:00 is 09:00:05Z: earlier than 09:30Z.
    expect(latestUsePerKey(events)).toEqual({ ids: [a, b], times: ['2026-11-20T09:30:00.000Z', '2026-11-20T10:00:00.000Z'] });
  });
});

describe('isDataError', () => {
  it('treats data exceptions and constraint violations as final, the rest as worth retrying', () => {
    expect(isDataError({ code: '22021' })).toBe(true); // invalid byte sequence (NUL)
    expect(isDataError({ code: '23514' })).toBe(true); // check violation
    expect(isDataError({ code: '57P01' })).toBe(false); // admin shutdown
    expect(isDataError({ code: '40P01' })).toBe(false); // deadlock
    expect(isDataError({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isDataError(new Error('timeout'))).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('doubles from about 200 ms and stays within the maximum', () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2, 3].map((n) => retryDelayMs(n, 5000, high))).toEqual([200, 400, 800, 1600]);
    expect(retryDelayMs(0, 5000, low)).toBe(100);
    expect(retryDelayMs(30, 5000, high)).toBe(5000);
  });
});

describe('RateMeter', () => {
  it('averages over the last seconds and forgets older ones', () => {
    let now = 1_000_000;
    const meter = new RateMeter(10, () => now);
    meter.add(500);
    now += 1000;
    meter.add(500);
    expect(meter.perSecond()).toBe(100);
    now += 20_000;
    expect(meter.perSecond()).toBe(0);
  });
});
