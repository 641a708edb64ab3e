import { describe, expect, it } from 'vitest';
import { formatMoney, formatWholeDollars, parseMoneyToCents } from '../../app/lib/money.ts';

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
});
