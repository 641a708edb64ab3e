// Create invoice and Create contact on a document's page, through the real
// Worker and backend (decision 033): a draft invoice from the reviewed fields
// (lines, tax, currency, dates, a link back), once; a contact matched by
// email rather than duplicated; bad fields refused under the review form's
// fields with nothing written; another account's document a 404; a read-only
// role shown no buttons and refused by the page and by the database.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_MEMBER, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { pageText, signIn, type Visitor } from './support/app';
import { serviceClient, userClient } from './support/backend';
import { extracted, upload } from './support/documents';
import { invalidFields, page, readable } from './support/module-screens';

let admin: Visitor;
let member: Visitor;
let auditor: Visitor;
beforeAll(async () => {
  [admin, member, auditor] = await Promise.all([signIn(DEMO_ADMIN), signIn(DEMO_MEMBER), signIn(DEMO_AUDITOR)]);
});

const unique = () => `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

/** A text invoice with a table of lines, VAT and a phone number; different bytes on every call. */
function tableInvoice(number: string): File {
  const body = [
    'Northwind Traders Ltd',
    'billing@northwind.test',
    'Tel: +44 117 496 0000',
    '',
    'INVOICE',
    `Invoice No: ${number}`,
    // Due ahead: an invoice is not made overdue (a past due date is refused, below).
    'Invoice Date: 14/03/2099',
    'Due Date: 13/04/2099',
    'Bill To: Acme Corporation',
    '',
    'Description    Qty    Unit Price    Amount',
    'Consulting services    10    £120.00    £1,200.00',
    'Travel expenses    1    £85.50    £85.50',
    '',
    'Subtotal    £1,285.50',
    'VAT 20%    £257.10',
    'Total Due    £1,542.60',
    `Reference ${unique()}`,
  ].join('\n');
  return new File([body], `${number}.txt`, { type: 'text/plain' });
}

async function storedFields(id: string): Promise<Record<string, { value: string }>> {
  const { data } = await serviceClient().from('documents').select('fields').eq('id', id).single();
  return (data as { fields: Record<string, { value: string }> }).fields;
}

/** Uploads, extracts and (unless told not to) approves the document with its fields, `changes` applied (an empty one clears). */
async function reviewedDocument(changes: Record<string, string> = {}, approve = true): Promise<string> {
  const number = `INV-DOC-${unique()}`;
  const id = await upload(admin, { file: tableInvoice(number), title: `From document ${number}` });
  expect((await extracted(id)).extraction_status).toBe('done');
  if (!approve) return id;
  const fields = await storedFields(id);
  const values = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'line_items').map(([key, field]) => [key, field.value]));
  const response = await admin.post(`/documents/${id}`, { ...values, ...changes, intent: 'review', approve: 'on' });
  expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(302);
  return id;
}

async function invoicesFrom(documentId: string) {
  const { data } = await serviceClient().from('invoices').select('*').eq('source_document_id', documentId);
  return data as { id: string; invoice_number: string; status: string; currency: string; total: number; tax_rate: number; due_date: string; client_name: string; client_email: string; notes: string; contact_id: string; account_id: string }[];
}

async function auditActions(id: string): Promise<string[]> {
  const { data } = await serviceClient().from('audit_logs').select('action').eq('resource_id', id).order('created_at');
  return (data ?? []).map((row: { action: string }) => row.action);
}

// The fixture is Northwind's invoice to Acme: a bill to the demo account (decision 048), so
// these posts say, as the page's "It is our own sale" does, that the person treats it as a sale.
describe('Create invoice from a document', () => {
  it("makes a draft invoice from the reviewed fields: the table's lines, the tax as a rate, currency, due date, a link back; audited", async () => {
    const email = `ap-${unique()}@acme.test`;
    const id = await reviewedDocument({ email });
    const created = await admin.post(`/documents/${id}`, { intent: 'create_invoice', own_sale: 'on' });
    expect(created.status).toBe(302);
    expect(created.headers.get('Location')).toBe(`/documents/${id}`);
    const [invoice] = await invoicesFrom(id);
    expect(invoice).toMatchObject({ status: 'draft', currency: 'GBP', total: 154260, tax_rate: 20, due_date: '2099-04-13', client_name: 'Acme Corporation', client_email: email });
    expect(invoice.notes).toContain('issued 2099-03-14');
    const { data: items } = await serviceClient().from('invoice_items').select('description, qty, unit_price, total').eq('invoice_id', invoice.id).order('position');
    expect(items).toEqual([
      { description: 'Consulting services', qty: 10, unit_price: 12000, total: 120000 },
      { description: 'Travel expenses', qty: 1, unit_price: 8550, total: 8550 },
    ]);
    // The contact is matched or created by email, as the New Invoice dialog does.
    const { data: contact } = await serviceClient().from('contacts').select('email, account_id').eq('id', invoice.contact_id).single();
    expect(contact).toEqual({ email, account_id: invoice.account_id });

    const after = readable(await pageText(await admin.follow(created)));
    expect(after).toContain(`Invoice ${invoice.invoice_number} created`);
    const html = await page(admin, `/documents/${id}`);
    expect(html).toContain(`href="/invoices/${invoice.id}"`);
    expect(html).not.toContain('value="create_invoice"');
    expect(await auditActions(id)).toContain('document_invoice_created');
    expect(await auditActions(invoice.id)).toContain('invoice_created');
    // The invoice's page shows the document's lines and total.
    const invoicePage = readable(await page(admin, `/invoices/${invoice.id}`));
    expect(invoicePage).toContain('Consulting services');
    expect(invoicePage).toContain('£1,542.60');
    expect(await page(admin, `/invoices/${invoice.id}`)).toContain(`href="/documents/${id}"`);
    // The document's history names what was made from it.
    expect(readable(await page(admin, `/documents/${id}`))).toContain('Invoice created by');
  });

  it('makes it once: a second try says so and links to the invoice', async () => {
    const id = await reviewedDocument({ email: `once-${unique()}@acme.test` });
    expect((await admin.post(`/documents/${id}`, { intent: 'create_invoice', own_sale: 'on' })).status).toBe(302);
    const [invoice] = await invoicesFrom(id);
    const again = await member.post(`/documents/${id}`, { intent: 'create_invoice', own_sale: 'on' });
    expect(again.status).toBe(302);
    const html = await pageText(await member.follow(again));
    expect(readable(html)).toContain(`An invoice was already created from this document: ${invoice.invoice_number}`);
    expect(html).toContain(`href="/invoices/${invoice.id}"`);
    expect(await invoicesFrom(id)).toHaveLength(1);
  });

  it('refuses a document due in the past under its Due date, writing nothing', async () => {
    const id = await reviewedDocument({ issue_date: '2025-03-14', due_date: '2025-04-13', email: `late-${unique()}@acme.test` });
    const refused = await admin.post(`/documents/${id}`, { intent: 'create_invoice', own_sale: 'on' });
    expect(refused.status).toBe(400);
    const html = await pageText(refused);
    expect(invalidFields(html)).toEqual(['due_date']);
    expect(readable(html)).toContain('The due date cannot be in the past');
    expect(await invoicesFrom(id)).toEqual([]);
  });

  it('refuses fields that cannot make an invoice, under those fields, writing nothing', async () => {
    const id = await reviewedDocument({ total: '', currency: 'KRW', email: `bad-${unique()}@acme.test` });
    const refused = await admin.post(`/documents/${id}`, { intent: 'create_invoice', own_sale: 'on' });
    expect(refused.status).toBe(400);
    const html = await pageText(refused);
    expect(invalidFields(html)).toEqual(['currency', 'total']);
    const text = readable(html);
    expect(text).toContain("Enter the document's total to create an invoice from it");
    expect(text).toContain('KRW is not a currency invoices are made in');
    // The review form keeps the stored fields as they were.
    expect(html).toContain('value="Acme Corporation"');
    expect(await invoicesFrom(id)).toEqual([]);
  });

  it('offers nothing before approval, and refuses a post then', async () => {
    const id = await reviewedDocument({}, false);
    const html = await page(admin, `/documents/${id}`);
    expect(readable(html)).toContain('Approve the document to create an invoice or a contact from its fields.');
    expect(html).not.toContain('value="create_invoice"');
    const refused = await admin.post(`/documents/${id}`, { intent: 'create_invoice', own_sale: 'on' });
    expect(refused.status).toBe(400);
    expect(readable(await pageText(refused))).toContain("Approve the document's fields first");
    expect(await invoicesFrom(id)).toEqual([]);
  });

  it("is a 404 for another account's document, writing nothing", async () => {
    const id = await reviewedDocument({ email: `other-${unique()}@acme.test` });
    const stranger = await signIn(DEMO_NORTHWIND_ADMIN);
    for (const intent of ['create_invoice', 'create_contact']) {
      expect((await stranger.post(`/documents/${id}`, { intent })).status, intent).toBe(404);
    }
    expect(await invoicesFrom(id)).toEqual([]);
    // The database says the same to a direct call.
    const client = await userClient(DEMO_NORTHWIND_ADMIN.email, DEMO_NORTHWIND_ADMIN.password);
    const { error } = await client.rpc('create_contact_from_document', { p_document_id: id, p_name: 'X', p_email: 'x@x.test' });
    expect(error?.code).toBe('P0002');
  });

  it('shows a read-only role no buttons, and the page and the database refuse it', async () => {
    const id = await reviewedDocument({ email: `ro-${unique()}@acme.test` });
    const html = await page(auditor, `/documents/${id}`);
    expect(html).not.toContain('value="create_invoice"');
    expect(html).not.toContain('value="create_contact"');
    expect((await auditor.post(`/documents/${id}`, { intent: 'create_invoice', own_sale: 'on' })).status).toBe(403);
    const client = await userClient(DEMO_AUDITOR.email, DEMO_AUDITOR.password);
    const direct = await client.rpc('create_invoice_from_document', {
      p_document_id: id, p_client_name: 'A', p_client_email: 'a@a.test', p_currency: 'GBP', p_due_date: '2099-04-13', p_items: [{ description: 'x', qty: 1, unit_price: 100 }],
    });
    expect(direct.error?.code).toBe('42501');
    expect(await invoicesFrom(id)).toEqual([]);
  });
});

describe('Create contact from a document', () => {
  it("creates the supplier's contact from its name, email and phone; a second document with that email links to it instead", async () => {
    const email = `billing-${unique()}@northwind.test`;
    const id = await reviewedDocument({ email });
    const created = await admin.post(`/documents/${id}`, { intent: 'create_contact' });
    expect(created.status).toBe(302);
    expect(readable(await pageText(await admin.follow(created)))).toContain('Contact Northwind Traders Ltd created');
    const { data: contacts } = await serviceClient().from('contacts').select('id, name, email, phone').eq('email', email);
    expect(contacts).toEqual([{ id: expect.any(String), name: 'Northwind Traders Ltd', email, phone: '+44 117 496 0000' }]);
    expect(await auditActions(contacts![0].id)).toContain('contact_created');
    expect(await auditActions(id)).toContain('document_contact_created');
    const html = await page(admin, `/documents/${id}`);
    expect(readable(html)).toContain('Contact Northwind Traders Ltd has this email');
    expect(html).toContain(`href="/clients/${contacts![0].id}"`);
    expect(html).not.toContain('value="create_contact"');
    expect(readable(html)).toContain('Contact created by');

    // Another document with the same email (in other letters' case): the contact is named and linked, not duplicated.
    const second = await reviewedDocument({ email: email.toUpperCase() });
    const again = await admin.post(`/documents/${second}`, { intent: 'create_contact' });
    expect(again.status).toBe(302);
    const answer = await pageText(await admin.follow(again));
    expect(readable(answer)).toContain('A contact with this email already exists: Northwind Traders Ltd');
    expect(answer).toContain(`href="/clients/${contacts![0].id}"`);
    const { data: all } = await serviceClient().from('contacts').select('id').ilike('email', email);
    expect(all).toHaveLength(1);
  });

  it('refuses a document without an email under its field, writing nothing', async () => {
    const id = await reviewedDocument({ email: '' });
    const { count: before } = await serviceClient().from('contacts').select('id', { count: 'exact', head: true });
    const refused = await admin.post(`/documents/${id}`, { intent: 'create_contact' });
    expect(refused.status).toBe(400);
    const html = await pageText(refused);
    expect(invalidFields(html)).toEqual(['email']);
    expect(readable(html)).toContain("Enter the contact's email address");
    const { count: after } = await serviceClient().from('contacts').select('id', { count: 'exact', head: true });
    expect(after).toBe(before);
  });
});
