// A draft's edit form (README, Quotes): what the server reads from it, and
// each refusal said under its field.
import { describe, expect, it } from 'vitest';
import { editQuoteSchema, expiryOfDay, quoteActionSchema } from '../../app/features/quotes/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const CONTACT = '6f1c1d9e-1111-4000-8000-000000000001';
const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;

const form = (changes: Record<string, string> = {}) => ({
  contact_id: CONTACT,
  currency: 'EUR',
  expires_on: nextYear,
  notes: 'Net 30',
  tax_rate: '20',
  discount: '12.5',
  'items[0].description': 'Design',
  'items[0].quantity': '2',
  'items[0].unit_price': '50',
  'items[1].description': 'Hosting',
  'items[1].quantity': '12',
  'items[1].unit_price': '9.99',
  ...changes,
});

describe('the quote edit form', () => {
  it('reads the lines in order, prices in cents and rates as numbers; empty rates are 0', () => {
    expect(valueOf(editQuoteSchema, form())).toEqual({
      contact_id: CONTACT,
      currency: 'EUR',
      expires_on: nextYear,
      notes: 'Net 30',
      tax_rate: 20,
      discount: 12.5,
      items: [
        { description: 'Design', quantity: 2, unit_price: 5000 },
        { description: 'Hosting', quantity: 12, unit_price: 999 },
      ],
    });
    expect(valueOf(editQuoteSchema, form({ tax_rate: '', discount: '' }))).toMatchObject({ tax_rate: 0, discount: 0 });
    expect(expiryOfDay('2027-06-30')).toBe('2027-06-30T23:59:59.999Z');
  });

  it('refuses each bad value under its field', () => {
    expect(errorsOf(editQuoteSchema, form({ tax_rate: '100.001' })).tax_rate).toEqual(['Tax rate must be a percentage from 0 to 100 with up to 2 decimals']);
    expect(errorsOf(editQuoteSchema, form({ tax_rate: '100.01' })).tax_rate).toHaveLength(1);
    expect(errorsOf(editQuoteSchema, form({ discount: '-1' })).discount).toEqual(['Discount must be a percentage from 0 to 100 with up to 2 decimals']);
    expect(errorsOf(editQuoteSchema, form({ 'items[1].unit_price': '-5' }))['items[1].unit_price']).toEqual([
      'Unit price must be an amount of at least 0 with up to 2 decimals',
    ]);
    expect(errorsOf(editQuoteSchema, form({ 'items[0].quantity': '0' }))['items[0].quantity']).toEqual(['Quantity must be at least 1']);
    expect(errorsOf(editQuoteSchema, form({ 'items[0].description': 'x'.repeat(2001) }))['items[0].description']).toEqual([
      'Description must be at most 2000 characters',
    ]);
    expect(errorsOf(editQuoteSchema, form({ expires_on: '2020-01-01' })).expires_on).toEqual(['The expiry date cannot be in the past']);
    expect(errorsOf(editQuoteSchema, form({ contact_id: '' })).contact_id).toEqual(['Choose a client']);
    const none = { contact_id: CONTACT, currency: 'EUR', expires_on: nextYear };
    expect(errorsOf(editQuoteSchema, none).items).toEqual(['Add at least one line item']);
    const many = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [
        [`items[${i}].description`, `Line ${i}`],
        [`items[${i}].quantity`, '1'],
        [`items[${i}].unit_price`, '1'],
      ]).flat(),
    ) as Record<string, string>;
    expect(errorsOf(editQuoteSchema, { ...none, ...many }).items).toEqual(['A quote has at most 100 line items']);
  });

  it("knows the quote page's three actions and nothing else", () => {
    for (const intent of ['send', 'revise', 'delete']) expect(valueOf(quoteActionSchema, { intent })).toEqual({ intent });
    expect(() => valueOf(quoteActionSchema, { intent: 'sign' })).toThrow();
  });
});
