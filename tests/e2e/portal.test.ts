// The client portal in Chromium, JavaScript on and off (issue 31, decision
// 050): the demo client John signs in and lands on /portal under the seller's
// name; sees the quote sent to him (never the draft addressed to him), an
// invoice with its balance and payment and its PDF; signs the quote from the
// portal on the quote's own signing page; finds it among his signed documents
// with the certificate in its PDF. No serious accessibility violations, no
// sideways scroll at 390 px.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_CLIENT } from '../support/accounts.ts';
import { pageTexts } from '../support/pdf.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';
import { serviceRest } from './support/quotes.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

interface Fixture {
  accountName: string;
  quote: { id: string; number: string };
  draftNumber: string;
  invoice: { id: string; number: string };
}

/** A sent quote and a part-paid sent invoice for John in the demo account, made through the service role. */
async function fixture(label: string): Promise<Fixture> {
  const [john] = await serviceRest<{ id: string; account_id: string }[]>('contacts?select=id,account_id&email=eq.john%40acme.test');
  const [account] = await serviceRest<{ name: string }[]>(`accounts?select=name&id=eq.${john.account_id}`);
  const [draft] = await serviceRest<{ quote_number: string }[]>(`quotes?select=quote_number&contact_id=eq.${john.id}&status=eq.draft&limit=1`);
  const [quote] = await serviceRest<{ id: string; quote_number: string }[]>('quotes', {
    method: 'POST',
    body: { account_id: john.account_id, contact_id: john.id, currency: 'USD', notes: `Portal ${label}`, expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString() },
  });
  await serviceRest('quote_items', { method: 'POST', body: { quote_id: quote.id, description: `Portal ${label} setup`, qty: 2, unit_price: 31_000, total: 62_000, position: 0 } });
  await serviceRest('rpc/change_quote_status', { method: 'POST', body: { p_quote_id: quote.id, p_status: 'sent' } });

  const [invoice] = await serviceRest<{ id: string; invoice_number: string }[]>('invoices', {
    method: 'POST',
    body: {
      account_id: john.account_id, contact_id: john.id, client_name: 'John Smith', client_email: 'john@acme.test', currency: 'USD',
      due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), notes: `Portal ${label}`,
    },
  });
  await serviceRest('invoice_items', { method: 'POST', body: { invoice_id: invoice.id, description: 'Support', qty: 1, unit_price: 80_000, total: 80_000, position: 0 } });
  // Marked sent as the seed marks its invoices (sending would mail John), then part paid.
  await serviceRest(`invoices?id=eq.${invoice.id}`, { method: 'PATCH', body: { status: 'sent', sent_at: new Date().toISOString() } });
  await serviceRest('payments', {
    method: 'POST',
    body: { invoice_id: invoice.id, account_id: john.account_id, amount: 30_000, paid_on: new Date().toISOString().slice(0, 10), method: 'card' },
  });
  const [numbered] = await serviceRest<{ invoice_number: string }[]>(`invoices?select=invoice_number&id=eq.${invoice.id}`);
  return { accountName: account.name, quote: { id: quote.id, number: quote.quote_number }, draftNumber: draft.quote_number, invoice: { id: invoice.id, number: numbered.invoice_number } };
}

async function signInAsClient(page: Page): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(DEMO_CLIENT.email);
  await page.getByLabel('Password').fill(DEMO_CLIENT.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/portal');
}

/** The PDF behind a link, as its text pages. */
async function pdfOf(page: Page, name: string): Promise<string[]> {
  const link = page.getByRole('link', { name });
  const response = await page.request.get(new URL((await link.getAttribute('href'))!, page.url()).toString());
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  return pageTexts(new Uint8Array(await response.body()));
}

/** With JavaScript off the page is scanned as the server renders it, in a context that refuses the app's scripts. */
async function axeOf(page: Page, javaScript: boolean): Promise<string[]> {
  if (javaScript) return seriousAxeViolations(page);
  const { page: scan, context } = await newVisitor(browser(), { javaScript: true, baseURL });
  await context.addCookies(await page.context().cookies());
  await context.route('**/*.js', (route) => route.abort());
  await scan.goto(page.url());
  const violations = await seriousAxeViolations(scan);
  await context.close();
  return violations;
}

async function checkPhoneAndAxe(page: Page, javaScript: boolean, path: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `${path} at 390 px`).toBeLessThanOrEqual(widths.client);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await axeOf(page, javaScript), path).toEqual([]);
}

for (const javaScript of [true, false]) {
  describe(`the client portal with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('shows the demo client what was sent to it and lets it sign a quote from there', async () => {
      const data = await fixture(javaScript ? 'js' : 'nojs');
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      await signInAsClient(page);

      // Quotes: the sent one with Review and sign, never the draft; the seller's name on top.
      await page.getByRole('heading', { level: 1, name: 'Your quotes' }).waitFor();
      expect(await page.getByTestId('portal-seller').textContent()).toContain(data.accountName);
      await page.getByText(data.quote.number, { exact: true }).waitFor();
      expect(await page.getByText('$620.00').count()).toBeGreaterThan(0);
      expect(await page.getByText(data.draftNumber, { exact: true }).count()).toBe(0);
      const nav = page.getByRole('navigation', { name: 'Application' }).first();
      expect(await nav.getByRole('link', { name: 'Leads' }).count()).toBe(0);
      const quotePdf = await pdfOf(page, `Download PDF: ${data.quote.number}`);
      expect(quotePdf[0]).toContain(data.quote.number);
      await checkPhoneAndAxe(page, javaScript, '/portal');

      // Invoices: balance and payment, and the PDF.
      await nav.getByRole('link', { name: 'Invoices' }).click();
      await page.getByRole('heading', { level: 1, name: 'Your invoices' }).waitFor();
      const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: data.invoice.number }) });
      await item.waitFor();
      expect(await item.getByTestId('balance').textContent()).toBe('$500.00');
      expect(await item.getByText('$300.00').count()).toBeGreaterThan(0);
      const invoicePdf = await pdfOf(page, `Download PDF: ${data.invoice.number}`);
      expect(invoicePdf.join('\n')).toContain(data.invoice.number);
      await checkPhoneAndAxe(page, javaScript, '/portal/invoices');

      // Review and sign: the quote's own signing page, then signed.
      await nav.getByRole('link', { name: 'Quotes' }).click();
      await page.getByRole('heading', { level: 1, name: 'Your quotes' }).waitFor();
      await page.getByRole('button', { name: `Review and sign: ${data.quote.number}` }).click();
      await page.waitForURL(/\/q\/[A-Za-z0-9_-]{43}\?from=portal$/);
      await page.getByRole('heading', { level: 1, name: `Quote ${data.quote.number}` }).waitFor();
      await page.getByLabel('Full name').fill('John Smith');
      await page.getByLabel('I agree to this quote and sign it with the name above').check();
      await page.getByRole('button', { name: 'Accept and sign' }).click();
      await page.getByRole('heading', { name: 'Thank you, this quote is signed' }).waitFor();
      await checkPhoneAndAxe(page, javaScript, 'the signed quote from the portal');
      const [row] = await serviceRest<{ status: string; signer_name: string }[]>(`quotes?select=status,signer_name&id=eq.${data.quote.id}`);
      expect(row).toEqual({ status: 'signed', signer_name: 'John Smith' });

      // Back to the portal, then its signed documents: the signed PDF with its certificate.
      await page.getByRole('link', { name: 'Back to your quotes' }).click();
      await page.getByRole('heading', { level: 1, name: 'Your quotes' }).waitFor();
      await nav.getByRole('link', { name: 'Signed documents' }).click();
      await page.getByRole('heading', { level: 1, name: 'Signed documents' }).waitFor();
      const signedPdf = await pdfOf(page, `Download PDF: Quote ${data.quote.number}`);
      expect(signedPdf.at(-1)).toContain('Signature certificate');
      expect(signedPdf.at(-1)).toContain('John Smith');
      await checkPhoneAndAxe(page, javaScript, '/portal/documents');
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
