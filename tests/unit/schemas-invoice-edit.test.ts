// A draft invoice's edit form (README, Invoices): what the server reads from
// it, and each refusal said under its field; and how its edit reads in the
// invoice's history.
import { describe, expect, it } from 'vitest';
import { editInvoiceSchema } from '../../app/features/invoices/schema.ts';
import { changedFields } from '../../app/lib/record-history.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const form = (changes: Record<string, string> = {}) => ({
  due_date: '2027-06-30',
  notes: 'Net 14',
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

describe('the invoice edit form', () => {
  it('reads the lines in order, prices in cents and rates as numbers; empty rates are 0', () => {
    expect(valueOf(editInvoiceSchema, form())).toEqual({
      due_date: '2027-06-30',
      notes: 'Net 14',
      tax_rate: 20,
      discount: 12.5,
      items: [
        { description: 'Design', quantity: 2, unit_price: 5000 },
        { description: 'Hosting', quantity: 12, unit_price: 999 },
      ],
    });
    expect(valueOf(editInvoiceSchema, form({ tax_rate: '', discount: '' }))).toMatchObject({ tax_rate: 0, discount: 0 });
    // A due date already past is refused (issue 31), as the New Invoice dialog refuses it.
    expect(errorsOf(editInvoiceSchema, form({ due_date: '2020-01-01' })).due_date).toEqual(['The due date cannot be in the past']);
  });

  it('refuses each bad value under its field', () => {
    expect(errorsOf(editInvoiceSchema, form({ tax_rate: '100.001' })).tax_rate).toEqual(['Tax rate must be a percentage from 0 to 100 with up to 2 decimals']);
    expect(errorsOf(editInvoiceSchema, form({ discount: '101' })).discount).toEqual(['Discount must be a percentage from 0 to 100 with up to 2 decimals']);
    expect(errorsOf(editInvoiceSchema, form({ 'items[1].unit_price': '-5' }))['items[1].unit_price']).toEqual([
      'Unit price must be an amount of at least 0 with up to 2 decimals',
    ]);
    expect(errorsOf(editInvoiceSchema, form({ 'items[0].unit_price': '1000000000.01' }))['items[0].unit_price']).toEqual(['Unit price is too large']);
    expect(valueOf(editInvoiceSchema, form({ 'items[0].unit_price': '1000000000.00' })).items[0].unit_price).toBe(100_000_000_000);
    expect(errorsOf(editInvoiceSchema, form({ 'items[0].quantity': '1.5' }))['items[0].quantity']).toEqual(['Quantity must be a whole number of at least 1']);
    expect(errorsOf(editInvoiceSchema, form({ 'items[0].description': ' ' }))['items[0].description']).toEqual(['Description is required']);
    expect(errorsOf(editInvoiceSchema, form({ due_date: '' })).due_date).toEqual(['Due date is required']);
    expect(errorsOf(editInvoiceSchema, form({ due_date: '2027-02-30' })).due_date).toEqual(['Due date must be a date']);
    expect(errorsOf(editInvoiceSchema, { due_date: '2027-06-30' }).items).toEqual(['Add at least one line item']);
  });
});

describe("an invoice edit in the invoice's history", () => {
  it('names the due date and the lines, quantity × description', () => {
    const entry = {
      id: '1',
      action: 'invoice_updated',
      at: '2026-11-24T00:00:00Z',
      actor: 'Ada',
      actorKind: 'user' as const,
      actorEmail: null,
      oldValues: { due_date: '2026-12-01', items: [{ description: 'Consulting', qty: 2, unit_price: 100 }], subtotal: 200 },
      newValues: { due_date: '2026-12-08', items: [{ description: 'Design', qty: 1, unit_price: 100 }, { description: 'Hosting', qty: 3, unit_price: 5 }], subtotal: 115 },
    };
    expect(changedFields(entry)).toEqual([
      { field: 'Due date', before: '2026-12-01', after: '2026-12-08' },
      { field: 'Line items', before: '2 × Consulting', after: '1 × Design, 3 × Hosting' },
    ]);
  });
});
