// Bills through the real Worker and backend (decision 048): a supplier's
// invoice on a document's page is offered as "Record bill", never as a sales
// invoice to the supplier's address; the post records the bill and the page
// links it; the account's own invoice is offered "Create invoice"; the
// person's choice when the fields do not say. Then /bills (search, filter,
// totals per currency) and a bill's page: mark paid (not in the future),
// edit and delete while to pay, an auditor reads, another account gets 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_CLIENT, DEMO_MEMBER, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { pageText, signIn, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { extracted, upload } from './support/documents';
import { invalidFields, page, readable } from './support/module-screens';

let admin: Visitor;
let member: Visitor;
let auditor: Visitor;
beforeAll(async () => {
  [admin, member, auditor] = await Promise.all([signIn(DEMO_ADMIN), signIn(DEMO_MEMBER), signIn(DEMO_AUDITOR)]);
});

const unique = () => `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

/** An invoice from `supplier` to `customer`, as a text file; different bytes on every call. */
function supplierInvoice(number: string, supplier = 'Northwind Traders Ltd', customer = 'OpsHub Pro'): File {
  const body = [
    supplier,
    'billing@northwind.test',
    '',
    'INVOICE',
    `Invoice No: ${number}`,
    'Invoice Date: 14/03/2025',
    'Due Date: 13/04/2025',
    `Bill To: ${customer}`,
    '',
    'Subtotal    £1,285.50',
    'VAT 20%    £257.10',
    'Total Due    £1,542.60',
    `Reference ${unique()}`,
  ].join('\n');
  return new File([body], `${number}.txt`, { type: 'text/plain' });
}

/** Uploads, extracts and approves the document with its fields as found, `changes` applied. */
async function approvedDocument(file: File, changes: Record<string, string> = {}): Promise<string> {
  const id = await upload(admin, { file, title: `Bill ${unique()}` });
  expect((await extracted(id)).extraction_status).toBe('done');
  const { data } = await serviceClient().from('documents').select('fields').eq('id', id).single();
  const fields = (data as { fields: Record<string, { value: string }> }).fields;
  const values = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'line_items').map(([key, field]) => [key, field.value]));
  const response = await admin.post(`/documents/${id}`, { ...values, ...changes, intent: 'review', approve: 'on' });
  expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(302);
  return id;
}

type Bill = { id: string; supplier_name: string; number: string; currency: string; total: number; subtotal: number; tax: number; due_date: string; status: string; paid_on: string | null };
async function billOf(documentId: string): Promise<Bill | null> {
  const { data } = await serviceClient().from('bills').select('*').eq('document_id', documentId).maybeSingle();
  return data as Bill | null;
}
async function invoicesFrom(documentId: string) {
  const { data } = await serviceClient().from('invoices').select('id').eq('source_document_id', documentId);
  return data ?? [];
}

describe("a supplier's invoice on a document's page", () => {
  it('is offered as Record bill, not Create invoice; the post records the bill and the page links it', async () => {
    const number = `NW-${unique()}`;
    const id = await approvedDocument(supplierInvoice(number));
    const before = await page(admin, `/documents/${id}`);
    expect(before).toContain('value="create_bill"');
    expect(before).not.toContain('value="create_invoice"');
    expect(readable(before)).toContain('Record bill');

    const recorded = await member.post(`/documents/${id}`, { intent: 'create_bill' });
    expect(recorded.status).toBe(302);
    expect(recorded.headers.get('Location')).toBe(`/documents/${id}`);
    const bill = await billOf(id);
    expect(bill).toMatchObject({ supplier_name: 'Northwind Traders Ltd', number, currency: 'GBP', total: 154_260, subtotal: 128_550, tax: 25_710, due_date: '2025-04-13', status: 'to_pay' });
    expect(readable(await pageText(await member.follow(recorded)))).toContain('Bill recorded');
    const after = await page(admin, `/documents/${id}`);
    expect(after).toContain(`href="/bills/${bill!.id}"`);
    expect(after).not.toContain('value="create_bill"');
    expect(after).not.toContain('value="create_invoice"');
    expect(readable(after)).toContain('Bill recorded by');

    // Its page shows what the supplier billed and links back.
    const billPage = await page(admin, `/bills/${bill!.id}`);
    expect(readable(billPage)).toContain('£1,542.60');
    expect(readable(billPage)).toContain(number);
    expect(billPage).toContain(`href="/documents/${id}"`);
    expect(billPage).toContain('value="pay"');

    // A second try, or the same invoice uploaded again: told, and linked, once.
    const again = await admin.post(`/documents/${id}`, { intent: 'create_bill' });
    expect(again.status).toBe(302);
    expect(await pageText(await admin.follow(again))).toContain(`href="/bills/${bill!.id}"`);
    const twin = await approvedDocument(supplierInvoice(number));
    const duplicate = await admin.post(`/documents/${twin}`, { intent: 'create_bill' });
    expect(readable(await pageText(await admin.follow(duplicate)))).toContain('This bill is already recorded');
    expect(await billOf(twin)).toBeNull();
  });

  it('never becomes a sales invoice to the supplier: Create invoice is refused unless the person says it is their sale', async () => {
    const id = await approvedDocument(supplierInvoice(`NW-${unique()}`));
    const refused = await admin.post(`/documents/${id}`, { intent: 'create_invoice' });
    expect(refused.status).toBe(400);
    const html = await pageText(refused);
    expect(readable(html)).toContain('This document is an invoice from Northwind Traders Ltd: record it as a bill');
    expect(invalidFields(html)).toEqual(['supplier_name']);
    expect(await invoicesFrom(id)).toEqual([]);
    // The person's choice: "It is our own sale" shows Create invoice, saying so.
    const chosen = await page(admin, `/documents/${id}?as=sale`);
    expect(chosen).toContain('value="create_invoice"');
    expect(chosen).toContain('name="own_sale"');
    expect(chosen).not.toContain('value="create_bill"');
  });

  it('refuses a bill the fields cannot make under the field to correct, writing nothing', async () => {
    const id = await approvedDocument(supplierInvoice(`NW-${unique()}`), { total: '' });
    const refused = await admin.post(`/documents/${id}`, { intent: 'create_bill' });
    expect(refused.status).toBe(400);
    const html = await pageText(refused);
    expect(invalidFields(html)).toEqual(['total']);
    expect(readable(html)).toContain("Enter the document's total to record the bill");
    expect(await billOf(id)).toBeNull();
  });
});

describe("the account's own invoice on a document's page", () => {
  it('is offered as Create invoice, with a way to say it is a bill', async () => {
    const id = await approvedDocument(supplierInvoice(`OWN-${unique()}`, 'OpsHub Pro Inc.', 'Acme Corporation'));
    const html = await page(admin, `/documents/${id}`);
    expect(html).toContain('value="create_invoice"');
    expect(html).not.toContain('value="create_bill"');
    expect(html).toContain(`href="/documents/${id}?as=bill"`);
  });

  it('asks when the fields name no supplier', async () => {
    const id = await approvedDocument(supplierInvoice(`UNK-${unique()}`), { supplier_name: '', customer_name: '' });
    const html = await page(admin, `/documents/${id}`);
    expect(readable(html)).toContain('Is this a bill from a supplier, or an invoice your account issued?');
    expect(html).not.toContain('value="create_bill"');
    expect(html).not.toContain('value="create_invoice"');
    expect(await page(admin, `/documents/${id}?as=bill`)).toContain('value="create_bill"');
  });
});

describe('the bills list and a bill\'s page', () => {
  let bill: Bill;
  let documentId: string;
  const number = `LIST-${unique()}`;
  beforeAll(async () => {
    documentId = await approvedDocument(supplierInvoice(number, `Fabrikam ${number}`));
    expect((await admin.post(`/documents/${documentId}`, { intent: 'create_bill' })).status).toBe(302);
    bill = (await billOf(documentId))!;
  });

  it('lists, searches and filters bills, with what is to pay per currency', async () => {
    const list = readable(await page(admin, '/bills'));
    expect(list).toContain('To pay');
    expect(list).toContain('£');
    const found = await page(admin, `/bills?q=${encodeURIComponent(number)}`);
    expect(found).toContain(`href="/bills/${bill.id}"`);
    expect(await page(admin, `/bills?q=${encodeURIComponent(number)}&status=paid`)).not.toContain(`href="/bills/${bill.id}"`);
    expect(await page(auditor, '/bills')).toContain('Bills');
  });

  it('marks it paid on a day that has come, then keeps it as paid', async () => {
    const page_ = `/bills/${bill.id}`;
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const refused = await admin.post(page_, { intent: 'pay', paid_on: future });
    expect(refused.status).toBe(400);
    expect(readable(await pageText(refused))).toContain('The payment date cannot be in the future');
    const early = await admin.post(page_, { intent: 'pay', paid_on: '2025-03-01' });
    expect(early.status).toBe(400);
    expect(readable(await pageText(early))).toContain("The payment date cannot be before the bill's issue date");
    expect((await auditor.post(page_, { intent: 'pay', paid_on: '2025-04-01' })).status).toBe(403);

    expect((await member.post(page_, { intent: 'pay', paid_on: '2025-04-01' })).status).toBe(302);
    expect(await billOf(documentId)).toMatchObject({ status: 'paid', paid_on: '2025-04-01' });
    const html = await page(admin, page_);
    expect(html).not.toContain('value="pay"');
    expect(html).not.toContain('href="?edit"');
    const edit = await admin.post(page_, { intent: 'update', supplier_name: 'Changed', currency: 'GBP', total: '1.00' });
    expect(edit.status).toBe(400);
    expect((await billOf(documentId))!.supplier_name).toBe(`Fabrikam ${number}`);
    expect(await page(admin, `/bills?q=${encodeURIComponent(number)}&status=paid`)).toContain(`href="/bills/${bill.id}"`);
  });

  it('edits and deletes a bill to pay; refuses bad input under its field', async () => {
    const id = await approvedDocument(supplierInvoice(`EDIT-${unique()}`, `Contoso ${unique()}`));
    await admin.post(`/documents/${id}`, { intent: 'create_bill' });
    const edited = (await billOf(id))!;
    const path = `/bills/${edited.id}`;
    const fields = { intent: 'update', supplier_name: 'Contoso Ltd', number: edited.number, currency: 'gbp', total: '1600.00', issue_date: '2025-03-14', due_date: '2025-03-01' };
    const bad = await admin.post(`${path}?edit`, fields);
    expect(bad.status).toBe(400);
    expect(invalidFields(await pageText(bad))).toEqual(['due_date']);
    expect((await admin.post(`${path}?edit`, { ...fields, due_date: '2025-05-01' })).status).toBe(302);
    expect(await billOf(id)).toMatchObject({ supplier_name: 'Contoso Ltd', currency: 'GBP', total: 160_000, due_date: '2025-05-01' });
    expect((await admin.post(path, { intent: 'delete' })).status).toBe(302);
    expect(await billOf(id)).toBeNull();
  });

  it("is a 404 to another account, and outside a client's shell", async () => {
    const client = await signIn(DEMO_CLIENT);
    for (const path of ['/bills', `/bills/${bill.id}`]) expect((await client.get(path)).status, path).toBe(302);
    const stranger = await signIn(DEMO_NORTHWIND_ADMIN);
    expect((await stranger.get(`/bills/${bill.id}`)).status).toBe(404);
    expect((await stranger.post(`/bills/${bill.id}`, { intent: 'delete' })).status).not.toBe(302);
    expect(await billOf(documentId)).not.toBeNull();
  });
});
