// The analytics range lives in the URL (?range=last_30_days, or
// ?range=custom&from=2026-04-01&to=2026-04-30), so a plain GET form changes it
// without JavaScript and a range can be bookmarked or shared. The database
// resolves a preset against today in the account's timezone (analytics_page).
import { isRealDate } from '~/lib/schemas/fields';
import { DATE_RANGES, type DateRange } from './schema';

export const DEFAULT_RANGE = 'last_30_days' as const;
/** Ten years: what analytics_figures accepts. */
const MAX_DAYS = 3660;

export type AnalyticsRange =
  | { range: Exclude<DateRange, 'custom'>; from?: undefined; to?: undefined; error?: string }
  | { range: 'custom'; from: string; to: string; error?: undefined };

/** Reads the range from the URL; what cannot be read falls back to the default and says why. */
export function readRange(url: URL): AnalyticsRange {
  const range = url.searchParams.get('range') ?? DEFAULT_RANGE;
  if (!(DATE_RANGES as readonly string[]).includes(range)) return { range: DEFAULT_RANGE, error: 'Choose a date range' };
  if (range !== 'custom') return { range: range as Exclude<DateRange, 'custom'> };
  const from = url.searchParams.get('from')?.trim() ?? '';
  const to = url.searchParams.get('to')?.trim() ?? '';
  if (!isRealDate(from) || !isRealDate(to)) return { range: DEFAULT_RANGE, error: 'Enter a start and an end date for a custom range' };
  if (to < from) return { range: DEFAULT_RANGE, error: 'End date must be on or after the start date' };
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 > MAX_DAYS) return { range: DEFAULT_RANGE, error: 'A custom range is at most ten years' };
  return { range: 'custom', from, to };
}

/** The query string of a range, for links that keep it (the export dialog, a preset). */
export function rangeQuery(range: AnalyticsRange): string {
  const params = new URLSearchParams({ range: range.range });
  if (range.range === 'custom') {
    params.set('from', range.from);
    params.set('to', range.to);
  }
  return params.toString();
}

/** A preset's name (not custom): what the export job's date_range may also be. */
export function isAnalyticsPreset(value: string): value is Exclude<DateRange, 'custom'> {
  return value !== 'custom' && (DATE_RANGES as readonly string[]).includes(value);
}
