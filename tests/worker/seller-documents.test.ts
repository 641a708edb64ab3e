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
import { joinAs } from './support/settings';
import { logoJpeg, logoPng } from '../support/logo-samples';

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
    // The accent is the page's primary colour (decision 051), with the text colour that keeps AA contrast on it.
    expect(html).toContain('--color-primary:#8a2be2;--color-primary-foreground:#ffffff');
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

  it('the logo: an admin uploads a PNG or JPEG; anything else, or anyone else, is refused; the PDFs draw it', async () => {
    const account = async () => (await serviceClient().from('accounts').select('logo_path').eq('id', accountId).single()).data!;
    const upload = (who: Visitor, bytes: Uint8Array, name: string, type: string) => {
      const form = new FormData();
      form.set('intent', 'upload-logo');
      form.set('logo', new File([bytes.slice()], name, { type }));
      return who.post('/settings/account', form);
    };
    const images = async (response: Response) =>
      (new TextDecoder('latin1').decode(new Uint8Array(await response.arrayBuffer())).match(/\/Subtype \/Image/g) ?? []).length;

    // An SVG named .png and declared image/png: refused by its bytes, nothing stored.
    const svg = await upload(admin, new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.png', 'image/png');
    expect(svg.status).toBe(400);
    expect(readable(await pageText(svg))).toContain('The logo must be a PNG or JPEG image');
    expect((await account()).logo_path).toBeNull();

    // Another role of the account is refused.
    const auditor = await joinAs(accountId, 'auditor');
    expect((await upload(auditor.visitor, logoPng(), 'logo.png', 'image/png')).status).toBe(403);
    expect((await account()).logo_path).toBeNull();

    const saved = await upload(admin, logoPng(), 'logo.png', 'image/png');
    expect(saved.status).toBe(302);
    expect(readable(await pageText(await admin.follow(saved)))).toContain('Logo updated');
    expect((await account()).logo_path).toBe(`${accountId}/logo.png`);
    const settings = await pageText(await admin.get('/settings/account'));
    expect(settings).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="Your current logo"/);

    // A draft invoice's PDF (the live account) draws it; a JPEG replaces it and the PNG is removed.
    const email = uniqueEmail('logo-payer');
    await admin.post('/invoices?new', {
      client_name: 'Logo Ltd', client_email: email, description: 'Work', unit_price: '10', quantity: '1', currency: 'EUR', due_date: day(30), notes: '',
    });
    const { data: invoice } = await serviceClient().from('invoices').select('id').eq('client_email', email).single();
    expect(await images(await admin.get(`/invoices/${invoice!.id}/pdf`))).toBe(1);
    await upload(admin, logoJpeg(), 'logo.jpg', 'image/jpeg');
    expect((await account()).logo_path).toBe(`${accountId}/logo.jpg`);
    const { data: left } = await serviceClient().storage.from('branding').list(accountId);
    expect(left!.map((o) => o.name)).toEqual(['logo.jpg']);
    expect(await images(await admin.get(`/invoices/${invoice!.id}/pdf`))).toBe(1);

    const removed = await admin.post('/settings/account', { intent: 'remove-logo' });
    expect(readable(await pageText(await admin.follow(removed)))).toContain('Logo removed');
    expect((await account()).logo_path).toBeNull();
    expect(await images(await admin.get(`/invoices/${invoice!.id}/pdf`))).toBe(0);
  });
});
