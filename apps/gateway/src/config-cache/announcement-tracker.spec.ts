import { AnnouncementTracker } from './announcement-tracker';

describe('AnnouncementTracker', () => {
  it('is caught up when every number up to the counter arrived as a message, in any order', () => {
    const tracker = new AnnouncementTracker();
    tracker.reset('4');
    tracker.receive(6);
    tracker.receive(5);
    expect(tracker.check('6')).toBe('caught_up');
    expect(tracker.check('6')).toBe('caught_up');
  });

  it('waits one poll for a number still on its way, and takes it as missed at the next', () => {
    const tracker = new AnnouncementTracker();
    tracker.reset('4');
    tracker.receive(5);
    expect(tracker.check('6')).toBe('waiting');
    tracker.receive(6);
    expect(tracker.check('6')).toBe('caught_up');

    tracker.receive(8);
    expect(tracker.check('8')).toBe('waiting');
    expect(tracker.check('8')).toBe('missed');
    tracker.reset('8');
    expect(tracker.check('8')).toBe('caught_up');
  });

  it('takes a message without a number (an older control plane) as missed at the second poll that finds it absent', () => {
    const tracker = new AnnouncementTracker();
    tracker.reset('1');
    tracker.receive(undefined);
    expect(tracker.check('2')).toBe('waiting');
    expect(tracker.check('2')).toBe('missed');
  });

  it('takes a counter that went back or away as Redis having lost its state', () => {
    const tracker = new AnnouncementTracker();
    tracker.reset('10');
    expect(tracker.check('3')).toBe('missed');
    expect(tracker.check(null)).toBe('missed');
    expect(tracker.check('not a number')).toBe('missed');
  });

  it('starts from zero on a Redis that never had a counter', () => {
    const tracker = new AnnouncementTracker();
    tracker.reset(null);
    tracker.receive(1);
    expect(tracker.check('1')).toBe('caught_up');
  });
});
