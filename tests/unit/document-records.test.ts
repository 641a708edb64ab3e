// What a reviewed document's fields make (decision 033): the draft invoice's
// lines, tax rate, currency and dates adding up to the document's total, the
// contact's details, and each field that stops them named with its message.
import { describe, expect, it } from 'vitest';
import type { DocumentFields } from '../../app/features/documents/extraction/fields.ts';
import { contactDraftFrom, invoiceDraftFrom, RECORD_FIELD_TEXTS, taxFor, toCents } from '../../app/features/documents/records-from-fields.ts';

const f = (values: Record<string, string>): DocumentFields =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, confidence: 1 }]));
const doc = { title: 'Northwind March' };
// Before the documents' due dates: a due date in the past is refused (see below).
const TODAY = '2025-04-01';

const northwind = {
  ...f({ kind: 'invoice', invoice_number: 'NT-1', issue_date: '2025-03-14', due_date: '2025-04-13', currency: 'GBP', subtotal: '1285.50', tax_amount: '257.10', total: '1542.60', supplier_name: 'Northwind', customer_name: 'Acme Corporation', email: 'AP@acme.test' }),
  line_items: {
    confidence: 0.7,
    value: [
      { description: 'Consulting services', quantity: '10', unit_price: '120.00', amount: '1200.00' },
      { description: 'Travel expenses', quantity: '1', unit_price: '85.50', amount: '85.50' },
    ],
  },
} satisfies DocumentFields;

describe('a draft invoice from the fields', () => {
  it("takes the table's lines, the tax as a rate that gives it to the cent, the currency, the due date and the customer", () => {
    const { draft } = invoiceDraftFrom(northwind, doc, TODAY);
    expect(draft).toEqual({
      client_name: 'Acme Corporation',
      client_email: 'ap@acme.test',
      currency: 'GBP',
      due_date: '2025-04-13',
      items: [
        { description: 'Consulting services', qty: 10, unit_price: 12000 },
        { description: 'Travel expenses', qty: 1, unit_price: 8550 },
      ],
      tax_rate: 20,
      notes: 'From the document "Northwind March", number NT-1, issued 2025-03-14.',
    });
    expect(128550 + taxFor(128550, 20)).toBe(154260);
  });

  it('adds the tax as a line when no rate gives it exactly, and keeps fractional quantities as one line at their amount', () => {
    const fields = {
      ...northwind,
      ...f({ subtotal: '100000.00', tax_amount: '1.23', total: '100001.23' }),
      line_items: { confidence: 0.7, value: [{ description: 'Design', quantity: '2.5', unit_price: '40000.00', amount: '100000.00' }] },
    };
    const { draft } = invoiceDraftFrom(fields, doc, TODAY);
    expect(draft!.items).toEqual([
      { description: 'Design (2.5 × 40000.00)', qty: 1, unit_price: 10000000 },
      { description: 'Tax', qty: 1, unit_price: 123 },
    ]);
    expect(draft!.tax_rate).toBe(0);
  });

  it("makes one line for the total when there is no table or it does not add up, due in 30 days when the document says nothing", () => {
    const fields = { ...f({ kind: 'invoice', invoice_number: 'A-9', currency: 'eur', total: '980.00', supplier_name: 'Harbour', customer_name: 'Acme', email: 'a@acme.test' }), line_items: { confidence: 0.7, value: [{ description: 'Part', quantity: '1', unit_price: '5.00', amount: '5.00' }] } };
    const { draft } = invoiceDraftFrom(fields, doc, TODAY);
    expect(draft!.items).toEqual([{ description: 'Invoice A-9 from Harbour', qty: 1, unit_price: 98000 }]);
    expect(draft!.currency).toBe('EUR');
    expect(draft!.due_date).toBe('2025-05-01');
    expect(draft!.notes).toContain('due in 30 days (the document states no due date)');
  });

  it('names each field that stops it: no total, a currency invoices do not take, no customer or email, due before issue', () => {
    expect(invoiceDraftFrom(f({ currency: 'KRW', issue_date: '2025-03-14', due_date: '2025-03-01' }), doc, TODAY).errors).toEqual({
      total: [RECORD_FIELD_TEXTS.noTotal],
      currency: [RECORD_FIELD_TEXTS.currency('KRW')],
      customer_name: [RECORD_FIELD_TEXTS.noCustomer],
      email: [RECORD_FIELD_TEXTS.noEmail],
      due_date: [RECORD_FIELD_TEXTS.dueBeforeIssue],
    });
    // Due before today: the database would refuse the invoice, so the field says it first.
    expect(invoiceDraftFrom(northwind, doc, '2025-04-14').errors).toEqual({ due_date: [RECORD_FIELD_TEXTS.dueInPast] });
    expect(invoiceDraftFrom(northwind, doc, '2025-04-13').draft?.due_date).toBe('2025-04-13');
    expect(invoiceDraftFrom(f({ total: '0.00', customer_name: 'A', email: 'a@b.test' }), doc, TODAY).errors).toEqual({
      total: [RECORD_FIELD_TEXTS.badTotal],
      currency: [RECORD_FIELD_TEXTS.noCurrency],
    });
  });

  it('reads amounts to the cent', () => {
    expect(toCents('1542.6')).toBe(154260);
    expect(toCents('0.05')).toBe(5);
    expect(toCents('1,000.00')).toBeNull();
  });
});

describe('a contact from the fields', () => {
  it("takes the supplier's name (else the customer's), the email and the phone", () => {
    expect(contactDraftFrom(f({ supplier_name: 'Northwind', customer_name: 'Acme', email: 'Hi@Northwind.test', phone: '+44 1' })).draft).toEqual({ name: 'Northwind', email: 'hi@northwind.test', phone: '+44 1' });
    expect(contactDraftFrom(f({ customer_name: 'Acme', email: 'a@acme.test' })).draft).toEqual({ name: 'Acme', email: 'a@acme.test', phone: null });
  });

  it('needs a name and an email', () => {
    expect(contactDraftFrom(f({})).errors).toEqual({ supplier_name: [RECORD_FIELD_TEXTS.noContactName], email: [RECORD_FIELD_TEXTS.noContactEmail] });
  });
});
