// When a scheduled automation runs (decision 067): croner computes the times
// of its cron expression in the account's timezone, so a daily 09:00 run is at
// 09:00 local on both sides of a daylight-saving change. A custom expression
// must fire (at least once in the coming year) and never more often than every
// 5 minutes (checked over its next runs).
import { Cron } from 'croner';

export const SCHEDULE_FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly', 'custom'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

/** The cron of each fixed frequency: on the hour, daily at 09:00, Mondays at 09:00, the 1st at 09:00. */
export const FREQUENCY_CRON: Record<Exclude<ScheduleFrequency, 'custom'>, string> = {
  hourly: '0 * * * *',
  daily: '0 9 * * *',
  weekly: '0 9 * * 1',
  monthly: '0 9 1 * *',
};

const MIN_INTERVAL_MS = 5 * 60_000;
/** How many coming runs are checked for the minimum interval. */
const CHECKED_RUNS = 50;

export type ScheduleCheck = { ok: true; next: Date[] } | { ok: false; error: string };

/** Five-field cron only (minute hour day month weekday): no seconds, no year, nothing else. */
const FIVE_FIELDS = /^[\d*/,\-A-Za-z?LW#]+( [\d*/,\-A-Za-z?LW#]+){4}$/;

export function cronOf(frequency: ScheduleFrequency, cron: string | null | undefined): string | null {
  return frequency === 'custom' ? (cron ?? null) : FREQUENCY_CRON[frequency];
}

/** Checks a cron expression in a timezone and answers its next five runs after `from`. */
export function checkSchedule(expression: string, timezone: string, from: Date = new Date()): ScheduleCheck {
  const cron = expression.trim().replace(/\s+/g, ' ');
  if (cron.length > 100 || !FIVE_FIELDS.test(cron)) {
    return { ok: false, error: 'Enter a cron expression of five fields: minute hour day month weekday' };
  }
  let job: Cron;
  try {
    job = new Cron(cron, { timezone, paused: true });
  } catch {
    return { ok: false, error: 'This cron expression is not valid' };
  }
  const runs = job.nextRuns(CHECKED_RUNS, from);
  const yearAhead = from.getTime() + 366 * 86_400_000;
  if (runs.length === 0 || runs[0].getTime() > yearAhead) {
    return { ok: false, error: 'This cron expression never runs' };
  }
  for (let i = 1; i < runs.length; i++) {
    if (runs[i].getTime() - runs[i - 1].getTime() < MIN_INTERVAL_MS) {
      return { ok: false, error: 'A schedule runs at most every 5 minutes' };
    }
  }
  return { ok: true, next: runs.slice(0, 5) };
}

/** The scheduled time due at `now` (the latest run at or before it), or null when there is none yet. */
export function dueRun(expression: string, timezone: string, now: Date): Date | null {
  try {
    const [latest] = new Cron(expression, { timezone, paused: true }).previousRuns(1, now);
    return latest ?? null;
  } catch {
    return null;
  }
}
