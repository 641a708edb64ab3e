import { describe, expect, it } from 'vitest';
import { centsToInput, formatCents, formatMoney, formatMoneySums, formatWholeDollars, formatWholeMoney, parseMoneyToCents, readMoneySums } from '../../app/lib/money.ts';
import { CURRENCIES, fitsCurrency } from '../../app/lib/currencies.ts';
import { ACCOUNT_CURRENCIES, ACCOUNT_CURRENCY_OPTIONS, WEBSITE_CURRENCIES } from '../../app/features/settings/settings-options.ts';
import { QUOTE_CURRENCIES } from '../../app/features/quotes/schema.ts';
import { INVOICE_CURRENCIES } from '../../app/features/invoices/new-invoice-schema.ts';
import { CURRENCY_CODES as EXTRACTED_CURRENCIES } from '../../app/features/documents/extraction/amounts.ts';
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

describe('money in each currency of the product (decision 046)', () => {
  it('shows each currency with its own digits: JPY without cents, the others with two', () => {
    expect(formatMoney(100_000, 'JPY')).toBe('¥1,000');
    expect(formatCents('100000', 'JPY')).toBe('¥1,000');
    expect(formatCents(123_456_789_012n, 'JPY')).toBe('¥1,234,567,890');
    expect(formatMoney(123_456, 'EUR')).toBe('€1,234.56');
    expect(formatMoney(123_456, 'CHF')).toBe('CHF\u00a01,234.56');
    // The app's one locale (en-US) groups by thousands in every currency, rupees too.
    expect(formatMoney(12_345_678_900, 'INR')).toBe('₹123,456,789.00');
    expect(formatMoney(100_000, 'PLN')).toBe('PLN\u00a01,000.00');
    expect(formatWholeMoney(100_000, 'JPY')).toBe('¥1,000');
  });

  it('gives a form back its amount in the digits of its currency', () => {
    expect(centsToInput(100_050, 'USD')).toBe('1000.50');
    expect(centsToInput(100_000, 'JPY')).toBe('1000');
  });

  it('holds the same list everywhere: settings, quotes, invoices and document extraction', () => {
    const codes = CURRENCIES.map((c) => c.code);
    expect([...ACCOUNT_CURRENCIES]).toEqual(codes);
    expect([...WEBSITE_CURRENCIES]).toEqual(codes);
    expect([...QUOTE_CURRENCIES]).toEqual(codes);
    expect([...INVOICE_CURRENCIES]).toEqual(codes);
    expect([...EXTRACTED_CURRENCIES]).toEqual(codes);
    expect(ACCOUNT_CURRENCY_OPTIONS.map((o) => o.value)).toEqual(codes);
    expect(fitsCurrency(100_000, 'JPY')).toBe(true);
    expect(fitsCurrency(100_050, 'JPY')).toBe(false);
    expect(fitsCurrency(100_050, 'EUR')).toBe(true);
  });
});
