// The month of the calendar, read from the URL (?month=YYYY-MM), and the grid
// of its weeks (Monday first). Pure, so the server renders it and links move
// month by month without JavaScript.
export interface CalendarMonth {
  /** 'YYYY-MM' */
  month: string;
  first: string;
  last: string;
  previous: string;
  next: string;
  label: string;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const monthOf = (d: Date) => d.toISOString().slice(0, 7);
const label = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The URL's month, else this month; years 2000 to 2200 only. */
export function readMonth(url: URL, today = new Date()): CalendarMonth {
  const raw = url.searchParams.get('month') ?? '';
  const match = MONTH.exec(raw);
  const year = match ? Number(match[1]) : today.getUTCFullYear();
  const month = match ? Number(match[2]) - 1 : today.getUTCMonth();
  const start = new Date(Date.UTC(year < 2000 || year > 2200 ? today.getUTCFullYear() : year, year < 2000 || year > 2200 ? today.getUTCMonth() : month, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
  return {
    month: monthOf(start),
    first: iso(start),
    last: iso(end),
    previous: monthOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1))),
    next: monthOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1))),
    label: label.format(start),
  };
}

/** The weeks of the month as rows of 7 days (null outside the month), Monday first. */
export function monthGrid(m: CalendarMonth): (string | null)[][] {
  const start = new Date(`${m.first}T00:00:00Z`);
  const days = Number(m.last.slice(8, 10));
  const lead = (start.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= days; d++) cells.push(`${m.month}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
