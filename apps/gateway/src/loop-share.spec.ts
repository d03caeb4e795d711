import { LoopShare } from './loop-share';

/** A fresh tracker, and a clock reading `ms` after it started. */
function tracker(): { share: LoopShare; at: (ms: number) => number } {
  const start = performance.now();
  return { share: new LoopShare(), at: (ms) => start + ms };
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

  it('holds back nobody when the loop was mostly idle, and forgets after a quiet window', () => {
    const { share, at } = tracker();
    share.record('a', 20, at(50));
    share.record('b', 1, at(110));
    expect(share.isHot('a')).toBe(false);
    share.record('a', 80, at(200));
    share.record('b', 5, at(215));
    expect(share.isHot('a')).toBe(true);
    share.record('b', 1, at(330));
    expect(share.isHot('a')).toBe(false);
  });
});
