import { cronWords, formatInZone, readCron } from './cron-reading';

describe('reading a cron', () => {
  it('says a daily time in plain words, and aliases too', () => {
    expect(cronWords('0 9 * * *')).toBe('every day at 09:00');
    expect(cronWords('@daily')).toBe('every day at 00:00');
    expect(cronWords('*/15 * * * 1-5')).toBe('every 15 minutes, Monday through Friday');
  });

  it('gives the next five runs in the chosen time zone, daylight-saving change included', () => {
    const reading = readCron('0 9 * * *', 'Europe/Berlin', new Date('2026-03-27T12:00:00Z'));
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.next.map((date) => date.toISOString())).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z',
      '2026-04-01T07:00:00.000Z',
    ]);
    expect(reading.next.map((date) => formatInZone(date, 'Europe/Berlin'))[1]).toMatch(/^Sun,? 29 Mar 2026, 09:00$/);
  });

  it('refuses what Save refuses, naming the field', () => {
    expect(readCron('0 0 9 * * *', 'UTC')).toMatchObject({ ok: false, field: 'cron', message: expect.stringContaining('five fields') });
    expect(readCron('0 9 * * *', 'Mars/Olympus')).toMatchObject({ ok: false, field: 'timezone', message: expect.stringContaining('Mars/Olympus') });
  });
});
