// Money of any size (formatCents): exact past Number's safe range.
import { describe, expect, it } from 'vitest';
import { centsToBigInt, formatCents, formatMoney } from '../../app/lib/money.ts';

describe('formatCents', () => {
  it('reads as formatMoney in the safe range', () => {
    for (const [cents, currency] of [
      [29_900, 'USD'],
      [123_456, 'EUR'],
      [5, 'GBP'],
      [0, 'USD'],
      [-1_050, 'USD'],
      [29_950, 'JPY'],
      [1_234_500, 'AED'],
    ] as const) {
      expect(formatCents(cents, currency)).toBe(formatMoney(cents, currency));
    }
  });

  it('formats 10^18 cents and more without losing a cent, from a string or a bigint', () => {
    expect(formatCents('1000000000000000001')).toBe('$10,000,000,000,000,000.01');
    expect(formatCents(999_999_999_999_999_999n, 'EUR')).toBe('€9,999,999,999,999,999.99');
    expect(formatCents('-9007199254740993')).toBe('-$90,071,992,547,409.93');
  });

  it('accepts only whole cents', () => {
    expect(centsToBigInt(' 42 ')).toBe(42n);
    for (const bad of [1.5, Number.MAX_SAFE_INTEGER + 2, Number.NaN, '1.5', '1e3', '', 'abc']) {
      expect(() => centsToBigInt(bad), String(bad)).toThrow(RangeError);
    }
  });
});
