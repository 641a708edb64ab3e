// The public pages wear the seller's brand in a real browser (decision 051):
// /q/:token and /i/:token show the seller's name, their logo (loaded from our
// own origin, so the pages' Content-Security-Policy holds: no violation) and
// their accent colour as the header band and the main button, with text that
// keeps AA contrast (axe finds no serious violation), JavaScript on.
import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { logoPng } from '../support/logo-samples.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';
import { serviceRest } from './support/quotes.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

/** A seller of its own (made by the service role): its logo in the bucket `branding`, a light accent. */
async function brandedSeller(name: string, accent: string): Promise<string> {
  const [account] = await serviceRest<{ id: string }[]>('accounts', { method: 'POST', body: { name } });
  const serviceKey = inject('serviceRoleKey');
  const stored = await fetch(`${inject('backendUrl')}/storage/v1/object/branding/${account.id}/logo.png`, {
    method: 'POST',
    headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, 'Content-Type': 'image/png' },
    body: logoPng(120, 40).slice(),
  });
  expect(stored.ok).toBe(true);
  await serviceRest(`accounts?id=eq.${account.id}`, { method: 'PATCH', body: { logo_path: `${account.id}/logo.png`, accent_color: accent } });
  return account.id;
}

async function quoteLink(accountId: string): Promise<string> {
  const [contact] = await serviceRest<{ id: string }[]>('contacts', { method: 'POST', body: { account_id: accountId, name: 'Bo Buyer', email: 'bo@buyer.test' } });
  const [quote] = await serviceRest<{ id: string }[]>('quotes', {
    method: 'POST',
    body: { account_id: accountId, contact_id: contact.id, currency: 'EUR', status: 'sent', expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString() },
  });
  await serviceRest('quote_items', { method: 'POST', body: { quote_id: quote.id, description: 'Survey', qty: 1, unit_price: 10_000, total: 10_000, position: 0 } });
  const token = await serviceRest<string>('rpc/issue_quote_link', { method: 'POST', body: { p_quote_id: quote.id } });
  return `/q/${token}`;
}

async function invoiceLink(accountId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const [invoice] = await serviceRest<{ id: string }[]>('invoices', {
    method: 'POST',
    body: {
      account_id: accountId, client_name: 'Bo Buyer', client_email: 'bo@buyer.test', currency: 'EUR', status: 'sent',
      due_date: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
      link_token_hash: `\\x${createHash('sha256').update(token).digest('hex')}`,
    },
  });
  await serviceRest('invoice_items', { method: 'POST', body: { invoice_id: invoice.id, description: 'Survey', qty: 1, unit_price: 10_000, total: 10_000 } });
  return `/i/${token}`;
}

/** Opens the page with CSP violations recorded; answers them once the logo has loaded. */
async function openBranded(path: string): Promise<{ page: Page; violations: () => Promise<string[]>; close: () => Promise<void> }> {
  const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  return {
    page,
    violations: async () => [...errors.filter((e) => /Content Security Policy/i.test(e)),
      ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))],
    close: () => context.close(),
  };
}

async function expectBrand(page: Page, path: string, name: string) {
  const band = page.getByTestId('seller-band');
  await expect.poll(() => band.getByText(name, { exact: true }).count()).toBe(1);
  const logo = band.locator('img');
  expect(await logo.getAttribute('src')).toBe(`${path}/logo`);
  // Loaded and decoded: a real image from our own origin.
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
  // The band in the accent, its text in the colour computed for it.
  const colours = await band.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
  return colours;
}

describe('the public pages wear the seller’s brand', () => {
  it('/q/: name, logo and a light accent with black text; Accept and sign in the accent; no CSP violation, axe clean', async () => {
    const accountId = await brandedSeller('Sunny Signs Ltd', '#fde047');
    const path = await quoteLink(accountId);
    const { page, violations, close } = await openBranded(path);
    expect(await expectBrand(page, path, 'Sunny Signs Ltd')).toEqual(['rgb(253, 224, 71)', 'rgb(0, 0, 0)']);
    const accept = page.getByRole('button', { name: 'Accept and sign' });
    expect(await accept.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color])).toEqual(['rgb(253, 224, 71)', 'rgb(0, 0, 0)']);
    expect(await violations()).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await close();
  });

  it('/i/: name, logo and a dark accent with white text; no CSP violation, axe clean', async () => {
    const accountId = await brandedSeller('Night Owl GmbH', '#1e1b4b');
    const path = await invoiceLink(accountId);
    const { page, violations, close } = await openBranded(path);
    expect(await expectBrand(page, path, 'Night Owl GmbH')).toEqual(['rgb(30, 27, 75)', 'rgb(255, 255, 255)']);
    expect(await violations()).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await close();
  });
});
