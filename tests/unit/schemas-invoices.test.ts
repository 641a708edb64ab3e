import { describe, expect, it } from 'vitest';
import { invoiceAmountCents, newInvoiceSchema } from '../../app/features/invoices/new-invoice-schema.ts';
import { earliestToday } from '../../app/lib/schemas/fields.ts';
import { paymentSchema } from '../../app/features/invoices/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const valid = {
  client_name: 'Acme',
  client_email: 'billing@acme.test',
  description: 'Consulting',
  unit_price: '1299.99',
  quantity: '3',
  currency: 'EUR',
  due_date: '2099-03-01',
};

describe('new invoice form', () => {
  it('turns the typed unit price into cents and computes the amount', () => {
    const invoice = valueOf(newInvoiceSchema, valid);
    expect(invoice.unit_price).toBe(129_999);
    expect(invoice.quantity).toBe(3);
    expect(invoiceAmountCents(invoice)).toBe(389_997);
  });

  it('defaults the currency to USD; an emptied quantity is an error, not taken as 1', () => {
    const { currency: _c, ...rest } = valid;
    expect(valueOf(newInvoiceSchema, rest).currency).toBe('USD');
    const { quantity: _q, ...noQuantity } = valid;
    expect(errorsOf(newInvoiceSchema, noQuantity).quantity).toEqual(['Quantity is required']);
    expect(errorsOf(newInvoiceSchema, { ...valid, quantity: '' }).quantity).toEqual(['Quantity is required']);
  });

  it('answers each required field', () => {
    const errors = errorsOf(newInvoiceSchema, {});
    expect(Object.keys(errors).sort()).toEqual(['client_email', 'client_name', 'description', 'due_date', 'quantity', 'unit_price']);
    expect(errors.client_email).toEqual(['Client email is required']);
    expect(errors.due_date).toEqual(['Due date is required']);
  });

  it('refuses a bad email, a negative or over-precise price, a quantity under 1 and an unknown currency', () => {
    const errors = errorsOf(newInvoiceSchema, {
      ...valid,
      client_email: 'not-an-email',
      unit_price: '-5',
      quantity: '0',
      currency: 'XYZ',
    });
    expect(errors.client_email).toEqual(['Enter a valid email address']);
    expect(errors.unit_price?.[0]).toMatch(/at least 0 with up to 2 decimals/);
    expect(errors.quantity).toEqual(['Quantity must be at least 1']);
    expect(errors.currency).toEqual(['Choose a currency']);
    expect(errorsOf(newInvoiceSchema, { ...valid, unit_price: '1.005' }).unit_price).toBeDefined();
    expect(errorsOf(newInvoiceSchema, { ...valid, quantity: '1.5' }).quantity).toBeDefined();
  });

  it('refuses a due date that is not a real day', () => {
    expect(errorsOf(newInvoiceSchema, { ...valid, due_date: '2025-02-30' }).due_date).toEqual(['Due date must be a date']);
  });

  it('refuses a due date in the past; today is fine wherever the account is', () => {
    expect(errorsOf(newInvoiceSchema, { ...valid, due_date: '2025-03-01' }).due_date).toEqual(['The due date cannot be in the past']);
    const today = new Date().toISOString().slice(0, 10);
    expect(valueOf(newInvoiceSchema, { ...valid, due_date: today }).due_date).toBe(today);
    // At 02:00 UTC it is still yesterday in Honolulu: that day is allowed here, the database decides by the account's zone.
    expect(earliestToday(new Date('2026-12-02T02:00:00Z'))).toBe('2026-12-01');
    expect(earliestToday(new Date('2026-12-02T13:00:00Z'))).toBe('2026-12-02');
  });

  it('takes every currency of the product, JPY in whole yen only', () => {
    for (const currency of ['CAD', 'AUD', 'CHF', 'JPY', 'AED', 'INR', 'PLN']) {
      expect(valueOf(newInvoiceSchema, { ...valid, currency, unit_price: '1000' }).currency).toBe(currency);
    }
    expect(errorsOf(newInvoiceSchema, { ...valid, currency: 'JPY', unit_price: '1000.50' }).unit_price).toEqual(['Unit price must be a whole amount in JPY']);
    expect(valueOf(newInvoiceSchema, { ...valid, currency: 'JPY', unit_price: '1000' }).unit_price).toBe(100_000);
  });
});

describe('payment form', () => {
  const payment = { intent: 'pay', amount: '1000', paid_on: new Date().toISOString().slice(0, 10), method: 'card', currency: 'JPY' };
  it('takes whole yen in JPY, cents in the others', () => {
    expect(valueOf(paymentSchema, payment).amount).toBe(100_000);
    expect(errorsOf(paymentSchema, { ...payment, amount: '999.50' }).amount).toEqual(['Amount must be a whole amount in JPY']);
    expect(valueOf(paymentSchema, { ...payment, amount: '999.50', currency: 'CHF' }).amount).toBe(99_950);
  });
});
