// Money is integer cents below the UI. These are the only places that cross
// between cents and what people read or type.

export type Currency = 'USD' | 'EUR' | 'GBP' | 'JPY' | 'AUD' | 'CAD' | 'AED';

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, wholeUnits: boolean): Intl.NumberFormat {
  const key = `${currency}:${wholeUnits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      ...(wholeUnits ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    });
    formatters.set(key, f);
  }
  return f;
}

/** 29900 → "$299.00" (amount ÷ 100 in en-US currency format). */
export function formatMoney(cents: number, currency: string = 'USD'): string {
  return formatter(currency, false).format(cents / 100);
}

/** 29900 → "$299": the dashboard's whole US dollars. */
export function formatWholeDollars(cents: number): string {
  return formatter('USD', true).format(Math.round(cents / 100));
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
