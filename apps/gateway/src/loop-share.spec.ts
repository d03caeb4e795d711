import { LoopShare } from './loop-share';

describe('LoopShare', () => {
  it('marks the project that took most of a busy window hot for the next one', () => {
    const share = new LoopShare();
    const start = performance.now();
    share.record('noisy', 80, start + 90);
    share.record('quiet', 10, start + 110);
    expect(share.isHot('noisy')).toBe(true);
    expect(share.isHot('quiet')).toBe(false);
  });

  it('never holds back a project that is alone on the gateway, however busy', () => {
    const share = new LoopShare();
    const start = performance.now();
    share.record('alone', 100, start + 110);
    expect(share.isHot('alone')).toBe(false);
  });

  it('holds back nobody when the loop was mostly idle, and forgets after a quiet window', () => {
    const share = new LoopShare();
    const start = performance.now();
    share.record('a', 20, start + 50);
    share.record('b', 1, start + 110);
    expect(share.isHot('a')).toBe(false);
    share.record('a', 80, start + 200);
    share.record('b', 5, start + 215);
    expect(share.isHot('a')).toBe(true);
    share.record('b', 1, start + 330);
    expect(share.isHot('a')).toBe(false);
  });
});
