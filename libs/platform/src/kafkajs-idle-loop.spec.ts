import { stopKafkajsIdleLoop } from './kafkajs-idle-loop';

// kafkajs' request queue, as the fix sees it (an internal module of the package).
const RequestQueue = require('kafkajs/src/network/requestQueue') as {
  prototype: { scheduleCheckPendingRequests(this: unknown): void };
};

/** The state of a request queue that the check reads, and a stand-in for the check itself. */
function queueState(pending: number, throttledUntil: number) {
  return { pending: Array.from({ length: pending }, () => ({})), throttledUntil, throttleCheckTimeoutId: null, checkPendingRequests: jest.fn() };
}

describe('stopKafkajsIdleLoop', () => {
  beforeAll(() => {
    expect(stopKafkajsIdleLoop()).toBe(true);
  });
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is idempotent', () => {
    expect(stopKafkajsIdleLoop()).toBe(true);
  });

  it('schedules nothing for a connection with nothing pending and no throttle (kafkajs spun a 1 ms timer here)', () => {
    const queue = queueState(0, -1);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(queue);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('still checks queued requests, and waits out a throttle, as kafkajs does', () => {
    const queued = queueState(1, -1);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(queued);
    jest.advanceTimersByTime(10);
    expect(queued.checkPendingRequests).toHaveBeenCalledTimes(1);

    const throttled = queueState(0, Date.now() + 50);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(throttled);
    jest.advanceTimersByTime(49);
    expect(throttled.checkPendingRequests).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(throttled.checkPendingRequests).toHaveBeenCalledTimes(1);
  });
});
