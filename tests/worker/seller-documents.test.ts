// The seller on every document through the real Worker (issue 31, decision
// 045): an account's seller details, entered in Settings → Account, are on a
// sent quote's mail, public page and PDF, and on a sent invoice's mail (with
// how to pay), public page and PDF; editing the account afterwards changes
// none of them (the snapshot taken at send); a draft's PDF shows the account
// as it is now.
import { env, exports } from 'cloudflare:workers';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/accounts';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { readable } from './support/module-screens';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = () => worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
const day = (offset = 0) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const SETTINGS = {
  intent: 'save', name: 'Brandwise GmbH', billing_email: 'billing@brandwise.test', default_currency: 'EUR', timezone: 'UTC',
  address_line1: 'Hafenstrasse 1', address_line2: '', postal_code: '20457', city: 'Hamburg', region: '', country: 'DE',
  tax_id: 'DE811907980', company_registration: 'HRB 99999', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX',
  bank_details: '', payment_terms: 'Payable within 14 days.', accent_color: '#8a2be2',
};
const HEADING = ['Brandwise GmbH', 'Hafenstrasse 1', '20457 Hamburg', 'Germany', 'Tax ID: DE811907980', 'Company registration: HRB 99999'];
const PAYMENT = ['Payable within 14 days.', 'IBAN: DE89 3704 0044 0532 0130 00', 'BIC: COBADEFFXXX'];

let admin: Visitor;
let accountId: string;
let ip = 0;
const freshIp = () => `198.51.100.${200 + ((ip += 1) % 50)}`;

async function pdfText(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.arrayBuffer())), { mergePages: true });
  return text;
}

async function mailTo(email: string) {
  for (let tries = 0; tries < 40; tries++) {
    await runCron();
    const mail = ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; text: string; subject: string }[]).find((m) => m.to === email);
    if (mail) return mail;
  }
  throw new Error(`no mail to ${email}`);
}

/** The account edited after sending: what was sent must not follow. */
async function editSeller() {
  const saved = await admin.post('/settings/account', { ...SETTINGS, name: 'Other Name AG', city: 'Bremen', tax_id: 'DE000000000' });
  expect(saved.status).toBe(302);
}

beforeAll(async () => {
  const signedUp = await signUpFreshAdmin({ first_name: 'Sam', last_name: 'Seller', company_name: 'Brandwise GmbH' });
  admin = signedUp.visitor;
  accountId = (await accountOf(signedUp.email)).accountId;
});

describe('the seller on documents', () => {
  it('a sent quote: the mail, /q/ and its PDF show the seller it was sent with, after the account is edited too', async () => {
    expect((await admin.post('/settings/account', SETTINGS)).status).toBe(302);
    const service = serviceClient();
    const clientEmail = uniqueEmail('seller-client');
    const contact = await service.from('contacts').insert({ account_id: accountId, name: 'Ada Client', email: clientEmail }).select('id').single();
    const quote = await service.from('quotes').insert({
      account_id: accountId, contact_id: contact.data!.id, currency: 'EUR', status: 'draft',
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }).select('id, quote_number').single();
    await service.from('quote_items').insert({ quote_id: quote.data!.id, description: 'Survey', qty: 1, unit_price: 10_000, total: 10_000, position: 0 });
    // A draft's PDF shows the account now.
    const draftPdf = await pdfText(await admin.get(`/quotes/${quote.data!.id}/pdf`));
    for (const text of HEADING) expect(draftPdf).toContain(text);

    expect((await admin.post(`/quotes/${quote.data!.id}`, { intent: 'send' })).status).toBe(302);
    const mail = await mailTo(clientEmail);
    expect(mail.subject).toContain('from Brandwise GmbH');
    for (const text of HEADING) expect(mail.text).toContain(text);
    const token = /\/q\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1];

    await editSeller();
    const html = await pageText(await new Visitor().get(`/q/${token}`, { 'CF-Connecting-IP': freshIp() }));
    const text = readable(html);
    for (const expected of HEADING) expect(text).toContain(expected);
    expect(text).not.toMatch(/Bremen|Other Name AG|DE000000000/);
    expect(html).toContain('border-top:4px solid #8a2be2');
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toContain(`href="/q/${token}/pdf"`);

    for (const response of [
      await new Visitor().get(`/q/${token}/pdf`, { 'CF-Connecting-IP': freshIp() }),
      await admin.get(`/quotes/${quote.data!.id}/pdf`),
    ]) {
      const pdf = await pdfText(response);
      for (const expected of HEADING) expect(pdf).toContain(expected);
      expect(pdf).not.toMatch(/Bremen|Other Name AG|DE000000000/);
    }
    expect((await admin.post('/settings/account', SETTINGS)).status).toBe(302);
  });

  it('a sent invoice: the mail says how to pay; /i/ and its PDF show the seller it was sent with', async () => {
    expect((await admin.post('/settings/account', SETTINGS)).status).toBe(302);
    const email = uniqueEmail('seller-payer');
    const created = await admin.post('/invoices?new', {
      client_name: 'Payer Ltd', client_email: email, description: 'Consulting', unit_price: '100', quantity: '1',
      currency: 'EUR', due_date: day(30), notes: '',
    });
    expect(created.status).toBe(302);
    const { data: invoice } = await serviceClient().from('invoices').select('id').eq('client_email', email).single();
    expect((await admin.post(`/invoices/${invoice!.id}`, { intent: 'send' })).status).toBe(302);
    const mail = await mailTo(email);
    for (const text of [...HEADING, ...PAYMENT]) expect(mail.text).toContain(text);
    const token = /\/i\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1];

    await editSeller();
    const view = readable(await pageText(await new Visitor().get(`/i/${token}`, { 'CF-Connecting-IP': freshIp() })));
    for (const text of [...HEADING, ...PAYMENT]) expect(view).toContain(text);
    expect(view).not.toMatch(/Bremen|Other Name AG|DE000000000/);
    const pdf = await pdfText(await new Visitor().get(`/i/${token}/pdf`, { 'CF-Connecting-IP': freshIp() }));
    for (const text of [...HEADING, ...PAYMENT]) expect(pdf).toContain(text);
    expect(pdf).not.toMatch(/Bremen|Other Name AG|DE000000000/);
    expect((await admin.post('/settings/account', SETTINGS)).status).toBe(302);
  });
});
