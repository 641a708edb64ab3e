// How the sample rows' dates read. Formatted in UTC so the server's HTML and
// the browser's render agree whatever the visitor's time zone.

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** '2025-01-15' → 'Jan 15, 2025'. */
export function formatDate(isoDate: string): string {
  return dateFormat.format(new Date(isoDate.length === 10 ? `${isoDate}T00:00:00Z` : isoDate));
}

/** '2025-01-15T09:24:00Z' → 'Jan 15, 2025, 9:24 AM' (UTC). */
export function formatDateTime(iso: string): string {
  return `${dateTimeFormat.format(new Date(iso))} UTC`;
}
