import { cronProblem, nextRuns } from './schedule-cron';

describe('schedule clock', () => {
  it('computes the next runs in the time zone across a DST change (Europe/Berlin, last Sunday of March)', () => {
    const runs = nextRuns('0 9 * * *', 'Europe/Berlin', new Date('2026-03-27T12:00:00Z'), 3).map((date) => date.toISOString());
    // 09:00 local: UTC+1 before the change, UTC+2 after it.
    expect(runs).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
    const autumn = nextRuns('30 1 * * *', 'America/New_York', new Date('2026-10-31T12:00:00Z'), 2).map((date) => date.toISOString());
    expect(autumn).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  });

  it('accepts five fields and the aliases, refusing seconds, bad fields, unknown zones and runs too close together', () => {
    expect(cronProblem('*/5 * * * *', 'UTC', 60)).toBeNull();
    expect(cronProblem('@daily', 'Asia/Tokyo', 60)).toBeNull();
    expect(cronProblem('@hourly', 'UTC', 60)).toBeNull();
    expect(cronProblem('*/10 * * * * *', 'UTC', 60)).toMatchObject({ field: 'cron', message: expect.stringMatching(/five fields/) });
    expect(cronProblem('61 * * * *', 'UTC', 60)).toMatchObject({ field: 'cron', message: expect.stringMatching(/not a valid cron/) });
    expect(cronProblem('0 9 * * *', 'Mars/Olympus', 60)).toMatchObject({ field: 'timezone' });
    expect(cronProblem('* * * * *', 'UTC', 300)).toMatchObject({ field: 'cron', message: expect.stringMatching(/SCHEDULE_MIN_INTERVAL_S/) });
  });
});
