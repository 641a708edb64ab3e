import { describe, expect, it } from 'vitest';
import { formatMoney, formatMoneySums, formatWholeDollars, parseMoneyToCents, readMoneySums } from '../../app/lib/money.ts';
import { conversionFigure, conversionRate } from '../../app/features/quotes/conversion.ts';

describe('money', () => {
  it('shows cents as the amount divided by 100 in en-US currency format', () => {
    expect(formatMoney(29_900)).toBe('$299.00');
    expect(formatMoney(123_456, 'EUR')).toBe('€1,234.56');
    expect(formatMoney(5, 'GBP')).toBe('£0.05');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('shows the dashboard figures as whole US dollars', () => {
    expect(formatWholeDollars(29_900)).toBe('$299');
    expect(formatWholeDollars(123_456)).toBe('$1,235');
    expect(formatWholeDollars(0)).toBe('$0');
  });

  it('parses typed decimal amounts into integer cents without floating-point drift', () => {
    expect(parseMoneyToCents('12')).toBe(1_200);
    expect(parseMoneyToCents('12.5')).toBe(1_250);
    expect(parseMoneyToCents('0.29')).toBe(29);
    expect(parseMoneyToCents(' 1,299.99 ')).toBe(129_999);
    expect(parseMoneyToCents('0')).toBe(0);
  });

  it('refuses amounts that are not non-negative with at most two decimals', () => {
    for (const bad of ['', 'abc', '-1', '1.234', '1e3', '12.3.4', 'NaN', '99999999999999999999']) {
      expect(parseMoneyToCents(bad), bad).toBeNull();
    }
  });

  it('shows a sum in several currencies as one figure per currency, never added together', () => {
    const sums = readMoneySums([
      { currency: 'USD', count: 2, value: 523_800, average: 261_900 },
      { currency: 'EUR', count: '1', value: '135000', average: 135_000 },
      { currency: 'not a currency', count: 1, value: 1, average: 1 },
      null,
    ]);
    expect(sums).toEqual([
      { currency: 'USD', count: 2, value: 523_800, average: 261_900 },
      { currency: 'EUR', count: 1, value: 135_000, average: 135_000 },
    ]);
    expect(formatMoneySums(sums)).toBe('$5,238.00 · €1,350.00');
    expect(formatMoneySums(sums, { whole: true })).toBe('$5,238 · €1,350');
    expect(formatMoneySums(sums, { pick: 'average' })).toBe('$2,619.00 · €1,350.00');
    expect(formatMoneySums([])).toBe('$0.00');
    expect(formatMoneySums(readMoneySums('garbage'), { whole: true })).toBe('$0');
  });

  it('rates conversion as signed ÷ sent, with no rate before anything was sent', () => {
    expect(conversionRate(0, 0)).toBeNull();
    expect(conversionRate(1, 3)).toBe(33);
    expect(conversionFigure(0, 0)).toEqual({ value: '—', note: 'No quotes sent yet' });
    expect(conversionFigure(0, 4)).toEqual({ value: '0%', note: 'No conversions yet' });
    expect(conversionFigure(1, 4)).toEqual({ value: '25%', note: '1 of 4 sent quotes signed' });
  });
});
