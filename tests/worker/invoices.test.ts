// /invoices, real (decision 029), through the Worker: the book and its cards,
// the New Invoice dialog, an invoice's page with Send, Record payment and
// Void, the invoice_send mail through the jobs runner and the public /i/ view,
// the overdue sweep with the clock moved. Each with and without a session,
// per role, as plain (no-JavaScript) form posts, and with bad input.
import { env, exports } from 'cloudflare:workers';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AUDITOR } from '../support/accounts';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, signIn, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { control, expectRefused, page, readable, selectedOption, without } from './support/module-screens';
import { joinAs } from './support/settings';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
/** One tick of the Cron Trigger at `at` (the run's clock). */
const runCron = (at = Date.now()) => worker.scheduled({ cron: '* * * * *', scheduledTime: at });

const day = (offset = 0) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let admin: Visitor;
let adminEmail: string;
let other: Visitor;

const valid = (changes: Record<string, string> = {}) => ({
  client_name: 'Acme Ltd',
  client_email: 'billing@acme.test',
  description: 'Consulting, March',
  unit_price: '1299.50',
  quantity: '2',
  currency: 'EUR',
  due_date: day(30),
  notes: '',
  ...changes,
});

/** Creates an invoice through the dialog; returns its id (from the toast's link). */
async function createInvoice(visitor: Visitor, changes: Record<string, string> = {}): Promise<string> {
  const response = await visitor.post('/invoices?new', valid(changes));
  expect(response.status, readable(await response.clone().text()).slice(0, 300)).toBe(302);
  expect(response.headers.get('Location')).toBe('/invoices');
  const html = await pageText(await visitor.follow(response));
  expect(readable(html)).toContain('Invoice created successfully!');
  const id = /href="\/invoices\/([0-9a-f-]{36})"/.exec(html)?.[1];
  if (!id) throw new Error('no invoice link on the list');
  return id;
}

async function pdfText(bytes: Uint8Array): Promise<string[]> {
  return (await extractText(await getDocumentProxy(bytes), { mergePages: false })).text;
}

async function invoiceRow(id: string) {
  const { data } = await serviceClient().from('invoices').select('*').eq('id', id).single();
  return data!;
}

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  admin = fresh.visitor;
  adminEmail = fresh.email;
  other = (await signUpFreshAdmin()).visitor;
});

describe('/invoices', () => {
  it("starts empty: the empty state, zero cards, '—' collection rate, no preview note or samples", async () => {
    const html = await page(admin, '/invoices');
    const text = readable(html);
    for (const card of ['Outstanding', 'Paid This Month', 'Total Invoices', 'Collection Rate']) expect(text).toContain(card);
    expect(text).toContain('No invoices yet. Create your first invoice to get started!');
    expect(text).toContain('—');
    expect(text).not.toContain('Sample');
    expect(text).not.toContain('INV-2025-001');
    expect(html).not.toContain('aria-label="Preview"');
  });

  it('opens New Invoice at ?new with quantity 1, USD and a price step of 0.01', async () => {
    const html = await page(admin, '/invoices?new');
    expect(html).toContain('role="dialog"');
    expect(control(html, 'quantity')).toContain('value="1"');
    expect(control(html, 'unit_price')).toContain('step="0.01"');
    expect(selectedOption(html, 'currency')).toBe('USD');
  });

  it('creates a real draft (no JavaScript: a plain post), listed with its number, linked, counted', async () => {
    const id = await createInvoice(admin);
    const row = await invoiceRow(id);
    expect(row).toMatchObject({ status: 'draft', currency: 'EUR', subtotal: 259_900, total: 259_900, client_email: 'billing@acme.test' });
    const html = await page(admin, '/invoices');
    expect(readable(html)).toContain(row.invoice_number);
    // The row's one link opens the invoice (its PDF is on the invoice's page).
    expect(html).toContain(`href="/invoices/${id}"`);
    expect(readable(html)).toContain('€2,599.00');
  });

  it('searches by number or client and filters by status through the URL', async () => {
    await createInvoice(admin, { client_name: 'Zephyr Findme', client_email: 'zephyr@find.test' });
    const found = readable(await page(admin, '/invoices?q=Findme'));
    expect(found).toContain('Zephyr Findme');
    expect(found).not.toContain('Acme Ltd');
    // The search counts its matches (search_invoices).
    expect(found).toMatch(/Showing 1–1 of 1 invoices/);
    const none = readable(await page(admin, '/invoices?status=paid'));
    expect(none).toContain('No invoices match your search.');
    expect(readable(await page(admin, '/invoices?status=draft'))).toContain('Zephyr Findme');
  });

  it('answers each invalid field with a 400 and its error, keeping what was typed', async () => {
    const path = '/invoices?new';
    await expectRefused(admin, path, without(valid(), 'client_name'), 'client_name', 'Client name is required');
    await expectRefused(admin, path, valid({ client_email: 'nope' }), 'client_email', 'Enter a valid email address');
    await expectRefused(admin, path, valid({ unit_price: '-1' }), 'unit_price', 'Unit price must be an amount of at least 0');
    await expectRefused(admin, path, valid({ quantity: '0' }), 'quantity', 'Quantity must be at least 1');
    await expectRefused(admin, path, valid({ currency: 'XYZ' }), 'currency', 'Choose a currency');
    const html = await expectRefused(admin, path, without(valid(), 'due_date'), 'due_date', 'Due date is required');
    expect(control(html, 'client_name')).toContain('value="Acme Ltd"');
  });

  it('refuses a post without a session, and an auditor (who reads the book)', async () => {
    const anonymous = await new Visitor().post('/invoices?new', valid());
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('Location')).toMatch(/^\/auth/);
    const auditor = await signIn(DEMO_AUDITOR);
    expect((await auditor.get('/invoices')).status).toBe(200);
    const refused = await auditor.post('/invoices?new', valid());
    expect(refused.status).toBe(403);
  });
});

describe('/invoices/:id', () => {
  it('is a 404 for a malformed id, an unknown one, and another account\'s invoice, for reads and posts', async () => {
    const id = await createInvoice(admin);
    for (const path of ['/invoices/not-a-uuid', `/invoices/${crypto.randomUUID()}`, `/invoices/${id}`]) {
      expect((await other.get(path)).status, path).toBe(404);
    }
    for (const intent of ['send', 'void']) {
      expect((await other.post(`/invoices/${id}`, { intent })).status, intent).toBe(404);
    }
    const pay = await other.post(`/invoices/${id}`, { intent: 'pay', amount: '1', paid_on: day(), method: 'cash', currency: 'EUR', reference: '' });
    expect(pay.status).toBe(404);
    expect(await invoiceRow(id)).toMatchObject({ status: 'draft', amount_paid: 0 });
  });

  it('sends: status sent, the mail with the /i/ link through the runner, the public view read-only and private', async () => {
    const email = `pay-${crypto.randomUUID().slice(0, 8)}@client.test`;
    const id = await createInvoice(admin, { client_email: email, currency: 'USD', unit_price: '100', quantity: '3' });
    const sent = await admin.post(`/invoices/${id}`, { intent: 'send' });
    expect(sent.status).toBe(302);
    const html = await pageText(await admin.follow(sent));
    expect(readable(html)).toContain(`Invoice sent to ${email}`);
    expect((await invoiceRow(id)).status).toBe('sent');
    let mail: { text: string; subject: string } | undefined;
    for (let tries = 0; tries < 40 && !mail; tries++) {
      await runCron();
      mail = ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; text: string; subject: string }[]).find((m) => m.to === email);
    }
    expect(mail?.subject).toContain('Invoice INV-');
    const link = /\/i\/([A-Za-z0-9_-]{43})/.exec(mail!.text);
    expect(link).not.toBeNull();
    const view = await new Visitor().get(`/i/${link![1]}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('Cache-Control')).toContain('no-store');
    expect(view.headers.get('X-Robots-Tag')).toContain('noindex');
    const viewHtml = await view.text();
    // Its h1 stands alone: inside another heading the browser's parser splits the two, and React's hydration fails on the page.
    expect(viewHtml).toMatch(/<h1[^>]*>Invoice (<!-- -->)?INV-\d{4}-\d{4}<\/h1>/);
    expect(viewHtml).not.toMatch(/<h[1-6][^>]*>(?:(?!<\/h[1-6]>).)*<h[1-6]/s);
    const viewText = readable(viewHtml);
    expect(viewText).toContain('$300.00');
    expect(viewText).not.toContain('Record payment');
    expect((await new Visitor().get(`/i/${'x'.repeat(43)}`)).status).toBe(404);
    // Only the token's hash is stored.
    const { data: stored } = await serviceClient().from('invoices').select('link_token_hash').eq('id', id).single();
    expect(String(stored!.link_token_hash)).not.toContain(link![1]);

    // The PDF: attached to the mail, behind the link, and on the invoice's page for its account only.
    const number = /Invoice (INV-\d{4}-\d+)/.exec(mail!.subject)![1];
    const attachments = (mail as unknown as { attachments?: { filename: string; content: string }[] }).attachments ?? [];
    expect(attachments.map((a) => a.filename)).toEqual([`${number}.pdf`]);
    expect((await pdfText(Uint8Array.from(atob(attachments[0].content), (c) => c.charCodeAt(0)))).join('\n')).toContain('Balance due');
    const publicPdf = await new Visitor().get(`/i/${link![1]}/pdf`);
    expect(publicPdf.headers.get('Content-Type')).toBe('application/pdf');
    expect((await pdfText(new Uint8Array(await publicPdf.arrayBuffer()))).join('\n')).toContain(number);
    expect((await new Visitor().get(`/i/${'x'.repeat(43)}/pdf`)).status).toBe(404);
    const own = await admin.get(`/invoices/${id}/pdf`);
    expect(own.status).toBe(200);
    expect(own.headers.get('Content-Disposition')).toBe(`attachment; filename="${number}.pdf"`);
    expect((await pdfText(new Uint8Array(await own.arrayBuffer()))).join('\n')).toContain('$300.00');
    expect((await other.get(`/invoices/${id}/pdf`)).status).toBe(404);
    expect((await new Visitor().get(`/invoices/${id}/pdf`)).status).toBe(302);
  });

  it('mails a link on SITE_URL whatever host or forwarded host the send came through', async () => {
    const email = `host-${crypto.randomUUID().slice(0, 8)}@client.test`;
    const id = await createInvoice(admin, { client_email: email });
    const evil = 'https://pay-opshub.evil.example';
    const sent = await exports.default.fetch(
      new Request(`${evil}/invoices/${id}`, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'send' }),
        headers: { Origin: evil, Cookie: admin.cookieHeader, 'X-Forwarded-Host': 'pay-opshub.evil.example', 'X-Forwarded-Proto': 'https' },
        redirect: 'manual',
      }),
    );
    expect(sent.status).toBe(302);
    let mail: { text: string } | undefined;
    for (let tries = 0; tries < 40 && !mail; tries++) {
      await runCron();
      mail = ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; text: string }[]).find((m) => m.to === email);
    }
    const link = /View it here: (\S+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toMatch(new RegExp(`^${env.SITE_URL}/i/[A-Za-z0-9_-]{43}$`));
    expect(mail!.text).not.toContain('evil.example');
  });

  it('the public link answers 429 to a client that used it too often this minute, not to another client', async () => {
    const email = `limit-${crypto.randomUUID().slice(0, 8)}@client.test`;
    const id = await createInvoice(admin, { client_email: email });
    expect((await admin.post(`/invoices/${id}`, { intent: 'send' })).status).toBe(302);
    let mail: { text: string } | undefined;
    for (let tries = 0; tries < 40 && !mail; tries++) {
      await runCron();
      mail = ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; text: string }[]).find((m) => m.to === email);
    }
    const token = /\/i\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')![1];
    const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    // The database's windows are whole minutes: a burst started late in one could straddle two.
    if (new Date().getUTCSeconds() > 40) await new Promise((resolve) => setTimeout(resolve, (61 - new Date().getUTCSeconds()) * 1000));
    let last: Response | undefined;
    for (let i = 0; i < 61; i++) {
      last = await new Visitor().get(`/i/${token}${i % 2 ? '/pdf' : ''}`, { 'CF-Connecting-IP': ip });
      if (i === 60) break;
      expect(last.status, `use ${i + 1}`).toBe(200);
      await last.arrayBuffer();
    }
    expect(last!.status).toBe(429);
    const page429 = await new Visitor().get(`/i/${token}`, { 'CF-Connecting-IP': ip });
    expect(page429.status).toBe(429);
    expect(page429.headers.get('Retry-After')).toBe('60');
    expect(readable(await page429.text())).toContain('Too many requests for this link. Try again in a minute.');
    expect((await new Visitor().get(`/i/${token}`, { 'CF-Connecting-IP': '198.18.255.1' })).status).toBe(200);
  });

  it("gives the client it is addressed to its PDF only once it was sent", async () => {
    const { accountId } = await accountOf(adminEmail);
    const client = await joinAs(accountId, 'client');
    const id = await createInvoice(admin, { client_email: client.email });
    expect((await client.visitor.get(`/invoices/${id}/pdf`)).status).toBe(404);
    expect((await admin.post(`/invoices/${id}`, { intent: 'send' })).status).toBe(302);
    const pdf = await client.visitor.get(`/invoices/${id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
  });

  it('records a partial then the full payment: pending, then paid; refuses bad payments with a message, nothing written', async () => {
    const id = await createInvoice(admin, { currency: 'USD', unit_price: '100', quantity: '1' });
    const path = `/invoices/${id}`;
    const payment = (changes: Record<string, string> = {}) => ({
      intent: 'pay', amount: '40', paid_on: day(), method: 'bank_transfer', reference: 'Wire 7', currency: 'USD', ...changes,
    });
    // A draft takes no payment: the page offers none, and a post is refused with the database's reason.
    expect(await page(admin, path)).not.toContain('Record payment</h3>');
    const onDraft = await admin.post(path, payment());
    expect(onDraft.status).toBe(400);
    expect(readable(await onDraft.text())).toContain('This invoice is a draft: send it before recording a payment');
    expect((await admin.post(path, { intent: 'send' })).status).toBe(302);
    expect(await page(admin, path)).toContain('Record payment</h3>');
    const early = await admin.post(path, payment({ paid_on: day(-2) }));
    expect(early.status).toBe(400);
    expect(readable(await early.text())).toContain('The payment date cannot be before the invoice was sent');
    await expectRefused(admin, path, payment({ amount: '0' }), 'amount', 'Amount must be more than zero');
    await expectRefused(admin, path, payment({ amount: '-5' }), 'amount', 'Amount must be an amount of at least 0');
    await expectRefused(admin, path, payment({ paid_on: day(5) }), 'paid_on', 'Payment date cannot be in the future');
    await expectRefused(admin, path, payment({ method: 'cheque' }), 'method', 'Choose a method');
    const otherCurrency = await admin.post(path, payment({ currency: 'EUR' }));
    expect(otherCurrency.status).toBe(400);
    expect(readable(await otherCurrency.text())).toContain("The payment must be in the invoice's currency (USD)");
    const over = await admin.post(path, payment({ amount: '100.01' }));
    expect(over.status).toBe(400);
    const overHtml = await over.text();
    expect(readable(overHtml)).toContain('The payment is more than the balance due');
    expect(control(overHtml, 'reference')).toContain('value="Wire 7"');
    expect(await invoiceRow(id)).toMatchObject({ amount_paid: 0 });

    const partial = await admin.post(path, payment());
    expect(partial.status).toBe(302);
    expect(readable(await pageText(await admin.follow(partial)))).toContain('Payment recorded');
    expect(await invoiceRow(id)).toMatchObject({ status: 'pending', amount_paid: 4_000 });
    const full = await admin.post(path, payment({ amount: '60' }));
    expect(full.status).toBe(302);
    const paidPage = readable(await pageText(await admin.follow(full)));
    expect(paidPage).toContain('Payment recorded');
    expect(paidPage).toContain('Payment recorded'); // the history names it as well
    expect(await invoiceRow(id)).toMatchObject({ status: 'paid', amount_paid: 10_000 });
    const again = await admin.post(path, payment({ amount: '1' }));
    expect(again.status).toBe(400);
    expect(readable(await again.text())).toContain('This invoice is paid in full');
  });

  it('voids a partly paid invoice with the paid amount credited back, shown on its page', async () => {
    const id = await createInvoice(admin, { currency: 'USD', unit_price: '100', quantity: '1' });
    const path = `/invoices/${id}`;
    expect((await admin.post(path, { intent: 'send' })).status).toBe(302);
    const paid = await admin.post(path, { intent: 'pay', amount: '40', paid_on: day(), method: 'card', reference: '', currency: 'USD' });
    expect(paid.status).toBe(302);
    expect(readable(await page(admin, `${path}?void`))).toContain('The $40.00 paid is credited back.');
    const voided = await admin.post(path, { intent: 'void' });
    expect(voided.status).toBe(302);
    const text = readable(await pageText(await admin.follow(voided)));
    expect(text).toContain('Invoice voided');
    expect(text).toContain('Credited back (invoice voided)');
    expect(text).toContain('−$40.00');
    expect(await invoiceRow(id)).toMatchObject({ status: 'void', amount_paid: 0 });
  });

  it("voids at ?void (confirmed by a post): 'Invoice voided'; a void invoice takes no payment and is not sent", async () => {
    const id = await createInvoice(admin);
    const path = `/invoices/${id}`;
    expect(await page(admin, `${path}?void`)).toContain('role="dialog"');
    const voided = await admin.post(path, { intent: 'void' });
    expect(voided.status).toBe(302);
    expect(readable(await pageText(await admin.follow(voided)))).toContain('Invoice voided');
    expect((await invoiceRow(id)).status).toBe('void');
    const pay = await admin.post(path, { intent: 'pay', amount: '1', paid_on: day(), method: 'cash', currency: 'EUR', reference: '' });
    expect(pay.status).toBe(400);
    expect(readable(await pay.text())).toContain('This invoice is void');
    expect((await admin.post(path, { intent: 'send' })).status).toBe(400);
  });

  it('refuses an unknown intent and an auditor, and a post without a session', async () => {
    const id = await createInvoice(admin);
    const path = `/invoices/${id}`;
    const bad = await admin.post(path, { intent: 'delete' });
    expect(bad.status).toBe(400);
    const anonymous = await new Visitor().post(path, { intent: 'void' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('Location')).toMatch(/^\/auth/);
    expect((await invoiceRow(id)).status).toBe('draft');
  });

  it('the daily sweep, clock moved past the due date: overdue, one reminder mail, none again within 7 days', async () => {
    const email = `late-${crypto.randomUUID().slice(0, 8)}@client.test`;
    const id = await createInvoice(admin, { client_email: email, due_date: day(2) });
    await admin.post(`/invoices/${id}`, { intent: 'send' });
    const mails = async () => ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; subject: string }[]).filter((m) => m.to === email);
    const later = Date.now() + 5 * 86_400_000;
    for (let tries = 0; tries < 40 && !(await mails()).some((m) => m.subject.startsWith('Reminder')); tries++) await runCron(later);
    expect((await invoiceRow(id)).status).toBe('overdue');
    const reminders = (await mails()).filter((m) => m.subject.startsWith('Reminder'));
    expect(reminders).toHaveLength(1);
    await runCron(later + 60_000);
    await runCron(later + 3 * 86_400_000);
    expect((await mails()).filter((m) => m.subject.startsWith('Reminder'))).toHaveLength(1);
    const { accountId } = await accountOf(adminEmail);
    const { data: events } = await serviceClient().from('events').select('kind').eq('account_id', accountId).eq('resource_id', id).eq('kind', 'invoice_overdue');
    expect(events).toHaveLength(1);
  });
});

