// Days left to a bid's deadline, counted from today (the request's day in UTC), never stored: the preview's
// sample rows said "18 days left" for deadlines long past. Red under 7 days; a past deadline says so.

const DAY = 86_400_000;

/** Whole days from `today` to `deadline` (both YYYY-MM-DD): 0 on the day, negative once past. */
export function daysLeft(deadline: string, today: string): number {
  return Math.round((Date.parse(`${deadline}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY);
}

export interface DeadlineNote {
  text: string;
  /** Under 7 days, or past: shown in red. */
  urgent: boolean;
}

export function deadlineNote(deadline: string, today: string): DeadlineNote {
  const days = daysLeft(deadline, today);
  if (days < 0) return { text: days === -1 ? 'Past deadline (1 day ago)' : `Past deadline (${-days} days ago)`, urgent: true };
  if (days === 0) return { text: 'Due today', urgent: true };
  return { text: days === 1 ? '1 day left' : `${days} days left`, urgent: days < 7 };
}

/** Today as YYYY-MM-DD in UTC. */
export const todayIso = (now = new Date()) => now.toISOString().slice(0, 10);
