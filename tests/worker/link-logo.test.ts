// The seller's logo on a public link's page, from our own origin (decision
// 051): /q/:token/logo and /i/:token/logo answer the logo of the seller the
// link's document carries, as PNG or JPEG by its bytes, with headers that keep
// it an image (nosniff, a sandbox CSP, same-origin only, a short private
// cache); a stored file that is not an image is refused; one link's token never
// serves another account's logo; and the page shows the logo, the seller's name
// and accent without giving out the logo's storage path (which names the account).
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { readable } from './support/module-screens';
import { freshTeam } from './support/settings';
import { logoJpeg, logoPng } from '../support/logo-samples';

type Team = Awaited<ReturnType<typeof freshTeam>>;
let png: Team;
let jpeg: Team;
let bare: Team;
let ip = 0;
const freshIp = () => `198.51.100.${100 + ((ip += 1) % 50)}`;
const get = (path: string) => new Visitor().get(path, { 'CF-Connecting-IP': freshIp() });

function upload(team: Team, bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.set('intent', 'upload-logo');
  form.set('logo', new File([bytes.slice()], name, { type }));
  return team.admin.visitor.post('/settings/account', form);
}

async function brand(team: Team, name: string, accent: string) {
  const saved = await team.admin.visitor.post('/settings/account', {
    intent: 'save', name, billing_email: 'billing@brand.test', default_currency: 'EUR', timezone: 'UTC',
    address_line1: '', address_line2: '', postal_code: '', city: '', region: '', country: '',
    tax_id: '', company_registration: '', iban: '', bic: '', bank_details: '', payment_terms: '', accent_color: accent,
  });
  expect(saved.status).toBe(302);
}

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };

/** The token of the link mailed to this address (the send job issues it: a token taken before would be voided). */
async function mailedToken(email: string, prefix: 'q' | 'i'): Promise<string> {
  for (let tries = 0; tries < 40; tries++) {
    await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
    const mail = ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; text: string }[]).find((m) => m.to === email);
    const token = mail && new RegExp(`/${prefix}/([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];
    if (token) return token;
  }
  throw new Error(`no link mailed to ${email}`);
}

const freshEmail = () => `logo-${crypto.randomUUID().slice(0, 8)}@buyer.test`;

async function quoteToken(team: Team): Promise<string> {
  const db = serviceClient();
  const email = freshEmail();
  const contact = await db.from('contacts').insert({ account_id: team.accountId, name: 'Lou Buyer', email }).select('id').single();
  const quote = await db.from('quotes').insert({
    account_id: team.accountId, contact_id: contact.data!.id, status: 'draft', currency: 'EUR',
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  }).select('id').single();
  await db.from('quote_items').insert({ quote_id: quote.data!.id, description: 'Survey', qty: 1, unit_price: 1000, total: 1000 });
  expect((await team.admin.visitor.post(`/quotes/${quote.data!.id}`, { intent: 'send' })).status).toBe(302);
  return mailedToken(email, 'q');
}

async function invoiceToken(team: Team): Promise<string> {
  const email = freshEmail();
  expect((await team.admin.visitor.post('/invoices?new', {
    client_name: 'Pat Payer', client_email: email, description: 'Work', unit_price: '10', quantity: '1',
    currency: 'EUR', due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), notes: '',
  })).status).toBe(302);
  const { data } = await serviceClient().from('invoices').select('id').eq('client_email', email).single();
  expect((await team.admin.visitor.post(`/invoices/${data!.id}`, { intent: 'send' })).status).toBe(302);
  return mailedToken(email, 'i');
}

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

function expectImageHeaders(response: Response, type: string) {
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toBe(type);
  expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
  expect(response.headers.get('Cache-Control')).toBe('private, max-age=300');
  expect(response.headers.get('Content-Security-Policy')).toBe("default-src 'none'; sandbox");
  expect(response.headers.get('Cross-Origin-Resource-Policy')).toBe('same-origin');
  expect(response.headers.get('X-Robots-Tag')).toBe('noindex, nofollow');
}

beforeAll(async () => {
  [png, jpeg, bare] = await Promise.all([freshTeam(), freshTeam(), freshTeam()]);
  await brand(png, 'Pine Logos Ltd', '#fde047');
  await brand(jpeg, 'Jet Black Co', '#1e1b4b');
  expect((await upload(png, logoPng(), 'logo.png', 'image/png')).status).toBe(302);
  expect((await upload(jpeg, logoJpeg(), 'logo.jpg', 'image/jpeg')).status).toBe(302);
}, 120_000);

describe('the logo of a public link', () => {
  it("/q/:token/logo is the quote's seller's PNG, with safe headers; the page shows it with the name and accent, not the storage path", async () => {
    const token = await quoteToken(png);
    const logo = await get(`/q/${token}/logo`);
    expectImageHeaders(logo, 'image/png');
    expect(await bytesOf(logo)).toEqual(logoPng());

    const html = await pageText(await get(`/q/${token}`));
    expect(html).toContain(`<img src="/q/${token}/logo"`);
    expect(readable(html)).toContain('Pine Logos Ltd');
    // A light accent: the band's text is black, the contrast AA.
    expect(html).toContain('--color-primary:#fde047;--color-primary-foreground:#000000');
    expect(html).not.toContain(png.accountId);
  });

  it("/i/:token/logo is the invoice's seller's JPEG; a dark accent gets white text", async () => {
    const token = await invoiceToken(jpeg);
    const logo = await get(`/i/${token}/logo`);
    expectImageHeaders(logo, 'image/jpeg');
    expect(await bytesOf(logo)).toEqual(logoJpeg());

    const html = await pageText(await get(`/i/${token}`));
    expect(html).toContain(`<img src="/i/${token}/logo"`);
    expect(readable(html)).toContain('Jet Black Co');
    expect(html).toContain('--color-primary:#1e1b4b;--color-primary-foreground:#ffffff');
    expect(html).not.toContain(jpeg.accountId);
  });

  it("a link serves its own seller's logo only: each token its account's, none for an account without one, none for a wrong token", async () => {
    const [pngQuote, jpegQuote, pngInvoice, bareQuote, bareInvoice] = [
      await quoteToken(png), await quoteToken(jpeg), await invoiceToken(png), await quoteToken(bare), await invoiceToken(bare),
    ];
    expect(await bytesOf(await get(`/q/${pngQuote}/logo`))).toEqual(logoPng());
    expect(await bytesOf(await get(`/q/${jpegQuote}/logo`))).toEqual(logoJpeg());
    expect(await bytesOf(await get(`/i/${pngInvoice}/logo`))).toEqual(logoPng());
    for (const path of [`/q/${bareQuote}/logo`, `/i/${bareInvoice}/logo`, `/q/${'x'.repeat(43)}/logo`, `/i/${'x'.repeat(43)}/logo`, '/q/short/logo']) {
      const refused = await get(path);
      expect(refused.status, path).toBe(404);
      expect(refused.headers.get('Content-Type'), path).toBe('text/plain; charset=utf-8');
    }
    // No logo, no image on the page.
    expect(await pageText(await get(`/q/${bareQuote}`))).not.toContain('/logo"');
  });

  it('a stored file that is not a PNG or JPEG is never served, whatever its name and stored type', async () => {
    const team = await freshTeam();
    expect((await upload(team, logoPng(), 'logo.png', 'image/png')).status).toBe(302);
    const token = await quoteToken(team);
    expect((await get(`/q/${token}/logo`)).status).toBe(200);
    // The object replaced behind the app's back (the bucket is written by admins through Storage's API).
    const html = new TextEncoder().encode('<html><script>alert(document.domain)</script></html>');
    const replaced = await serviceClient().storage.from('branding')
      .upload(`${team.accountId}/logo.png`, html, { contentType: 'image/png', upsert: true });
    expect(replaced.error).toBeNull();
    const refused = await get(`/q/${token}/logo`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(await refused.text()).not.toContain('<script');
  });
});
