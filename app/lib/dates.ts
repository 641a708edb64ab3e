// How dates read across the product, in UTC so the server's HTML and the
// browser's render agree whatever the visitor's time zone. As
// docs/product-guide.md says: the dashboard's relative times show days, then
// hours, else 'Just now'.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export function relativeTime(then: Date | string, now: Date = new Date()): string {
  const elapsed = now.getTime() - new Date(then).getTime();
  const days = Math.floor(elapsed / DAY_MS);
  if (days >= 1) return `${days} day${days === 1 ? '' : 's'} ago`;
  const hours = Math.floor(elapsed / HOUR_MS);
  if (hours >= 1) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return 'Just now';
}

const shortDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'Nov 22, 2026' (a bare '2026-11-22' reads as that day in UTC); nothing for no date. */
export function formatShortDate(value: Date | string | null): string {
  return value === null ? '' : shortDate.format(new Date(value));
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** '2025-01-15T09:24:00Z' → 'Jan 15, 2025, 9:24 AM UTC'. */
export function formatDateTime(iso: string): string {
  return `${dateTimeFormat.format(new Date(iso))} UTC`;
}
