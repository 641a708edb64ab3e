// Money is integer cents below the UI: hundredths of the unit in every
// currency (decision 046). These are the only places that cross between cents
// and what people read or type. Each currency is shown with its own digits
// (app/lib/currencies.ts): $1,000.00, €1,000.00, ¥1,000.

import { minorUnits, type CurrencyCode } from './currencies.ts';

export type Currency = CurrencyCode;

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, wholeUnits: boolean): Intl.NumberFormat {
  const key = `${currency}:${wholeUnits}`;
  let f = formatters.get(key);
  if (!f) {
    const digits = wholeUnits ? 0 : minorUnits(currency);
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(key, f);
  }
  return f;
}

/** 29900 → "$299.00", 100000 JPY → "¥1,000" (amount ÷ 100 in en-US currency format, the currency's digits). */
export function formatMoney(cents: number, currency: string = 'USD'): string {
  return formatter(currency, false).format(cents / 100);
}

/** 29900 → "$299": the dashboard's whole US dollars. */
export function formatWholeDollars(cents: number): string {
  return formatter('USD', true).format(Math.round(cents / 100));
}

/** Whole units of any currency: 29900 EUR → "€299". */
export function formatWholeMoney(cents: number, currency: string = 'USD'): string {
  return formatter(currency, true).format(Math.round(cents / 100));
}

/**
 * One currency's share of a sum of money, as the database groups it
 * (quote_summary, dashboard_overview): how many amounts, their sum and their
 * rounded mean, in cents. Amounts in different currencies are never added.
 */
export interface MoneySum {
  currency: string;
  count: number;
  value: number;
  average: number;
}

/** The database's list of sums (JSON) as MoneySums; anything malformed is left out. */
export function readMoneySums(json: unknown): MoneySum[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { currency, count, value, average } = item as Record<string, unknown>;
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return [];
    return [{ currency, count: Number(count) || 0, value: Number(value) || 0, average: Number(average) || 0 }];
  });
}

/** Separates the currencies of one figure: '$5,238 · €1,350'. */
export const MONEY_SUM_SEPARATOR = ' · ';

/**
 * A sum of money in several currencies, one figure per currency present, in
 * the order given (the database puts the currency with the most amounts
 * first): '$5,238.00 · €1,350.00'. `pick` chooses the sum or the mean; with
 * `whole`, whole units ('$5,238 · €1,350'). Nothing to sum reads as zero in
 * `emptyCurrency`.
 */
export function formatMoneySums(
  sums: readonly MoneySum[],
  { pick = 'value', whole = false, emptyCurrency = 'USD' }: { pick?: 'value' | 'average'; whole?: boolean; emptyCurrency?: string } = {},
): string {
  const format = whole ? formatWholeMoney : formatMoney;
  if (sums.length === 0) return format(0, emptyCurrency);
  return sums.map((sum) => format(sum[pick], sum.currency)).join(MONEY_SUM_SEPARATOR);
}

/** Cents as the decimal a person types in the currency: 100050 → "1000.50"; 100000 JPY → "1000". */
export function centsToInput(cents: number, currency: string = 'USD'): string {
  return (cents / 100).toFixed(minorUnits(currency));
}

/**
 * A decimal amount as typed ("12", "12.5", "1,299.99") → integer cents, or null
 * when it is not a non-negative amount with at most two decimals. Parsed from
 * the string, not through floating point, so "0.29" is 29 and never 28.
 */
export function parseMoneyToCents(input: string): number | null {
  const text = input.trim().replace(/,/g, '');
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * Integer cents of any size. Amounts reach 10^18 cents in the database, past
 * Number's exact range (2^53), so they may come as a bigint or as the decimal
 * string PostgREST sends for bigint columns; a number must be a safe integer.
 */
export type Cents = number | bigint | string;

/** Cents as a bigint; anything that is not a whole number of cents throws a RangeError. */
export function centsToBigInt(value: Cents): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`Not a whole number of cents: ${value}`);
    return BigInt(value);
  }
  const text = value.trim();
  if (!/^-?\d+$/.test(text)) throw new RangeError(`Not a whole number of cents: ${JSON.stringify(value)}`);
  return BigInt(text);
}

/**
 * formatMoney for amounts of any size: 1000000000000000001n USD →
 * "$10,000,000,000,000,000.01". The cents become an exact decimal string,
 * which Intl formats without going through floating point; for the safe range
 * it reads exactly as formatMoney.
 */
export function formatCents(cents: Cents, currency: string = 'USD'): string {
  const value = centsToBigInt(cents);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const decimal = `${negative ? '-' : ''}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
  // Intl.NumberFormat takes a decimal string as an exact value (ECMA-402 NumberFormat v3).
  return formatter(currency, false).format(decimal as unknown as number);
}
