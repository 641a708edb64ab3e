// How values read in the PDFs: the product's own formatters where they fit.
import { formatShortDate } from '../dates.ts';
import { type Cents, centsToBigInt, formatCents } from '../money.ts';
import { toDate } from './document.ts';
import type { DateInput, DecimalInput } from './types.ts';

export { centsToBigInt };

export function money(cents: Cents, currency: string): string {
  return formatCents(cents, currency);
}

/** A discount or payment shown as taken off: '-$12.00'. */
export function minusMoney(cents: Cents, currency: string): string {
  return formatCents(-centsToBigInt(cents), currency);
}

/** 'Nov 22, 2026'. */
export function day(value: DateInput): string {
  return formatShortDate(toDate(value));
}

/** '2026-11-24 17:03:12 UTC': an instant to the second, for the certificate. */
export function instant(value: DateInput): string {
  return `${toDate(value).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A decimal in its shortest exact form: 2 → '2', '2.50' → '2.5', '007' → '7'.
 * Anything but a plain finite decimal throws a RangeError.
 */
export function canonicalDecimal(value: DecimalInput): string {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`Not a decimal: ${JSON.stringify(value)}`);
  const whole = match[2].replace(/^0+(?=\d)/, '');
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const digits = fraction === '' ? whole : `${whole}.${fraction}`;
  return match[1] === '-' && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

/** A quantity with thousands separators, exact: '1,250.5'. */
export function quantity(value: DecimalInput): string {
  // A decimal string is formatted as its exact value (ECMA-402 NumberFormat v3).
  return grouped.format(canonicalDecimal(value) as unknown as number);
}

/** '8.25%'. */
export function percent(value: DecimalInput): string {
  return `${canonicalDecimal(value)}%`;
}

/** A stored value as a label: 'bank_transfer' → 'Bank transfer'. */
export function label(value: string): string {
  const words = value.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
