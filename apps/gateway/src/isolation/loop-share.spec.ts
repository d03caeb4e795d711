import { LoopShare } from './loop-share';

/** A fresh tracker on a loop busy `busy` of the time, and a clock reading `ms` after it started. */
function tracker(busy = 0.9): { share: LoopShare; at: (ms: number) => number } {
  const start = performance.now();
  return { share: new LoopShare(() => busy), at: (ms) => start + ms };
}

describe('LoopShare', () => {
  it('marks the project that took most of a busy window hot for the next one', () => {
    const { share, at } = tracker();
    share.record('noisy', 80, at(90));
    share.record('quiet', 10, at(110));
    expect(share.isHot('noisy')).toBe(true);
    expect(share.isHot('quiet')).toBe(false);
  });

  it('never holds back a project that is alone on the gateway, however busy', () => {
    const { share, at } = tracker();
    share.record('alone', 100, at(110));
    expect(share.isHot('alone')).toBe(false);
  });

  it('holds back nobody when the loop was mostly idle', () => {
    const { share, at } = tracker(0.2);
    share.record('a', 20, at(50));
    share.record('b', 1, at(110));
    expect(share.isHot('a')).toBe(false);
  });

  it('tells that requests are being served beside long runs when runs that finished at once took 2 ms of a busy window', () => {
    const { share, at } = tracker();
    share.record('noisy', 60, at(50));
    share.record('quiet', 1.5, at(90), true);
    share.record('quiet', 1, at(110), true);
    expect(share.servingRequests).toBe(true);
    // The next window: long runs only (a project's slices are not runs that finished at once).
    share.record('noisy', 60, at(150));
    share.record('other', 30, at(215));
    expect(share.servingRequests).toBe(false);
  });

  it('does not count requests as being served when they took under 2 ms, or when one project had the loop', () => {
    const { share, at } = tracker();
    share.record('noisy', 80, at(50));
    share.record('quiet', 0.5, at(110), true);
    expect(share.servingRequests).toBe(false);
    share.record('alone', 30, at(220), true);
    expect(share.servingRequests).toBe(false);
  });

  it('forgets a hot project after a window it was not served in', () => {
    const { share, at } = tracker();
    share.record('a', 80, at(90));
    share.record('b', 5, at(110));
    expect(share.isHot('a')).toBe(true);
    share.record('b', 1, at(230));
    expect(share.isHot('a')).toBe(false);
  });
});
