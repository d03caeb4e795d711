import { CLOSE_SPACING_MS, LoopShare } from './loop-share';

/**
 * A fresh tracker on a loop busy `busy` of the time, and a clock reading `ms` after it started.
 * The clock starts after the tracker's first window did (never before it, however slow the
 * machine: a window then rolls at `at(100)` at the latest).
 */
function tracker(busy = 0.9): { share: LoopShare; at: (ms: number) => number } {
  const share = new LoopShare(() => busy);
  const start = performance.now();
  return { share, at: (ms) => start + ms };
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

  it('holds back nobody for a project whose flows took next to nothing of the window', () => {
    const { share, at } = tracker();
    // A flood of bodies at a GET-only path: its flows answer in microseconds, its costs are the connections'.
    share.record('flooding', 0.08, at(50), true);
    share.record('quiet', 6, at(110), true);
    expect(share.isHot('quiet')).toBe(false);
    share.record('flooding', 0.5, at(150), true);
    share.record('quiet', 6, at(215), true);
    expect(share.isHot('quiet')).toBe(true);
  });

  it('holds back nobody whose runs all finished at once beside another project whose runs took turns', () => {
    const { share, at } = tracker();
    // Long runs in slices (held to their share by the scheduler) beside a project of cheap requests.
    share.record('long', 2, at(40));
    share.record('cheap', 8, at(80), true);
    share.record('long', 1, at(110));
    expect(share.isHot('cheap')).toBe(false);
    // The same cheap requests beside another project's cheap requests: held back as before.
    share.record('other', 2, at(150), true);
    share.record('cheap', 8, at(215), true);
    expect(share.isHot('cheap')).toBe(true);
  });

  it('forgets a hot project after a window it was not served in', () => {
    const { share, at } = tracker();
    share.record('a', 80, at(90));
    share.record('b', 5, at(110));
    expect(share.isHot('a')).toBe(true);
    share.record('b', 1, at(230));
    expect(share.isHot('a')).toBe(false);
  });

  describe('answers that close a connection with the body unread', () => {
    /** `count` such answers of `projectId` at `ms`, and what each was told to wait. */
    const closes = (share: LoopShare, projectId: string, count: number, ms: number): number[] => Array.from({ length: count }, () => share.closeUnread(projectId, ms));

    it('spaces out those of a project that sent four or more in a window while another project was served, each after the one before', () => {
      const { share, at } = tracker(0.2); // a quiet loop: what the flood costs is mostly outside it
      share.record('quiet', 1, at(10));
      expect(closes(share, 'flood', 4, at(50))).toEqual([0, 0, 0, 0]);
      // The window rolls with the next one; it and the two after wait their turns.
      expect(closes(share, 'flood', 3, at(101)).map((ms) => Math.round(ms))).toEqual([0, CLOSE_SPACING_MS, 2 * CLOSE_SPACING_MS]);
      // Another project's refusals are not held.
      expect(share.closeUnread('quiet', at(102))).toBe(0);
    });

    it('never makes the project served beside a flood of refusals hot: the refused project took no loop time of its flows', () => {
      const { share, at } = tracker();
      share.record('quiet', 40, at(30), true);
      closes(share, 'flood', 20, at(50));
      share.record('quiet', 40, at(101), true);
      expect(share.isHot('quiet')).toBe(false);
      // The flood itself is still spaced out.
      expect(closes(share, 'flood', 2, at(102))[1]).toBeGreaterThan(0);
    });

    it('never holds a project alone on the gateway, or one that refused fewer than four', () => {
      const { share, at } = tracker();
      closes(share, 'alone', 50, at(50));
      expect(share.closeUnread('alone', at(101))).toBe(0);

      const other = tracker();
      other.share.record('quiet', 1, other.at(10));
      closes(other.share, 'few', 3, other.at(50));
      expect(other.share.closeUnread('few', other.at(101))).toBe(0);
    });

    it('lets a project go once it stops, and answers at once rather than hold an answer past a second', () => {
      const { share, at } = tracker();
      share.record('quiet', 1, at(10));
      closes(share, 'flood', 10, at(50));
      // Held: 60 connections arrive together; those that would wait past a second are answered at once.
      const waits = closes(share, 'flood', 60, at(101));
      expect(Math.max(...waits)).toBeLessThanOrEqual(1000);
      expect(waits.filter((ms) => ms === 0).length).toBeGreaterThan(1);
      // A window without any: the next is not held.
      share.record('quiet', 1, at(250));
      share.record('quiet', 1, at(360));
      expect(share.closeUnread('flood', at(361))).toBe(0);
    });
  });
});
