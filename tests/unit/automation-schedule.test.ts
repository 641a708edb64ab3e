// Scheduled automations' times (decision 067): a daily 09:00 run in the
// account's timezone stays at 09:00 local across a daylight-saving change;
// custom expressions are refused when they never fire or fire too often.
import { describe, expect, it } from 'vitest';
import { checkSchedule, cronOf, dueRun } from '~/features/automations/schedule';

describe('automation schedules', () => {
  it('runs daily at 09:00 Berlin time on both sides of the March change', () => {
    const check = checkSchedule(cronOf('daily', null)!, 'Europe/Berlin', new Date('2026-03-27T12:00:00Z'));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.next.map((d) => d.toISOString())).toEqual([
      '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z', '2026-04-01T07:00:00.000Z',
    ]);
  });

  it('names the run due at a moment: the latest at or before it, once a day', () => {
    expect(dueRun('0 9 * * *', 'Europe/Berlin', new Date('2026-03-29T07:30:00Z'))?.toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(dueRun('0 9 * * *', 'Europe/Berlin', new Date('2026-03-29T06:59:00Z'))?.toISOString()).toBe('2026-03-28T08:00:00.000Z');
  });

  it('refuses expressions that fire too often, never fire, or are not cron', () => {
    expect(checkSchedule('* * * * *', 'UTC')).toEqual({ ok: false, error: 'A schedule runs at most every 5 minutes' });
    expect(checkSchedule('*/2 * * * *', 'UTC')).toEqual({ ok: false, error: 'A schedule runs at most every 5 minutes' });
    expect(checkSchedule('0 0 31 2 *', 'UTC')).toMatchObject({ ok: false });
    expect(checkSchedule('* * * * * *', 'UTC')).toMatchObject({ ok: false });
    expect(checkSchedule('banana', 'UTC')).toMatchObject({ ok: false });
    expect(checkSchedule('0 9 * * *\nBcc: x', 'UTC')).toMatchObject({ ok: false });
    expect(checkSchedule('*/5 * * * *', 'UTC')).toMatchObject({ ok: true });
  });
});
