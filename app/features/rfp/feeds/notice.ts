// One tender notice, whatever format it came in (decision 065): the normalised columns the radar matches
// and shows, beside the raw notice kept as it was. The parsers are pure functions over text already fetched
// (the fetch, its 2 MB / 10 s caps and its address checks are the feed job's); each caps what it reads.

export interface Notice {
  /** The notice's id within its source (OCDS ocid, TED publication number, RSS guid or link, Atom id). */
  sourceId: string;
  title: string;
  buyer: string | null;
  /** As the source gives it: an ISO 3166 code (TED: alpha-3) or a country name (OCDS address.countryName). */
  country: string | null;
  cpv: string[];
  /** Integer minor units (cents), with its currency; null when the notice gives no value. */
  value: number | null;
  currency: string | null;
  /** ISO 8601 instant, or null. */
  deadline: string | null;
  publishedAt: string | null;
  documents: string[];
  url: string | null;
  /** The notice as the source gave it (JSON), capped. */
  raw: unknown;
}

export class FeedFormatError extends Error {}

export const FEED_LIMITS = {
  /** Characters of a feed's text (the job reads at most 2 MB of bytes). */
  maxChars: 2 * 1024 * 1024,
  maxNotices: 1000,
  maxTitle: 500,
  maxName: 300,
  maxCpv: 50,
  maxDocuments: 20,
  maxUrl: 2000,
} as const;

// C0 and C1 control characters (but tab, line feed and carriage return, folded to spaces below).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** A line of text: markup removed (a title is text, never HTML), entities of the common five decoded, control characters dropped, spaces folded, capped. */
export function cleanText(value: unknown, max: number): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value)
    // Decoded first, so markup escaped once (Atom's type="html") is removed too.
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, '&')
    .replace(/<[^>]*>/g, ' ')
    .replace(CONTROL, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text.slice(0, max) : null;
}

/** An http(s) URL, or null: a feed names no javascript: or data: link. */
export function cleanUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > FEED_LIMITS.maxUrl) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A date in the shapes feeds use (ISO 8601, RFC 822, '2024-05-01+02:00'), as an ISO instant; null if none. */
export function cleanDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 100) return null;
  let text = value.trim();
  // TED writes a date with an offset and no time: '2024-05-01+02:00' (the end of that day is meant by a deadline, but the day is what we keep).
  const dayWithOffset = /^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (dayWithOffset) text = `${dayWithOffset[1]}T00:00:00${dayWithOffset[2]}`;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return null;
  const year = new Date(time).getUTCFullYear();
  return year >= 1990 && year <= 2200 ? new Date(time).toISOString() : null;
}

/** An amount as feeds write it (123456.78, "123,456.78", "1.234.567,89 EUR") in cents; null if it is none or absurd. */
export function cleanAmount(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') text = String(value);
  else if (typeof value === 'string') text = value.replace(/[^\d.,-]/g, '');
  else return null;
  if (!text) return null;
  // The last separator followed by one or two digits is the decimal one; the others group thousands.
  const decimal = /[.,](\d{1,2})$/.exec(text);
  const whole = (decimal ? text.slice(0, decimal.index) : text).replace(/[.,]/g, '');
  if (!/^-?\d+$/.test(whole)) return null;
  const cents = Number(whole) * 100 + (decimal ? Number(decimal[1].padEnd(2, '0')) : 0);
  return Number.isSafeInteger(cents) && cents >= 0 && cents <= 100_000_000_000_000 ? cents : null;
}

export function cleanCurrency(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z]{3}$/.test(value.trim()) ? value.trim().toUpperCase() : null;
}

/** CPV codes: eight digits (a check digit after a hyphen is dropped), each once, capped. */
export function cleanCpv(values: unknown[]): string[] {
  const codes = new Set<string>();
  for (const value of values) {
    const match = typeof value === 'string' || typeof value === 'number' ? /^(\d{8})(-\d)?$/.exec(String(value).trim()) : null;
    if (match) codes.add(match[1]);
    if (codes.size >= FEED_LIMITS.maxCpv) break;
  }
  return [...codes];
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
