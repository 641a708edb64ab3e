// One record page (issue 32): every detail page on the record kit. A draft
// quote shows no empty facts; the lifecycle reads as one timeline, newest
// first, with who acted; at 390 px the status and the facts come before the
// history and no page scrolls sideways; the line editor is one row per line
// and adds, moves and removes lines with JavaScript on and off; a document's
// page frames its file from our own origin and shows where a field was read.
// Screenshots of each page at 1280 and 390 px go to test-results/screenshots/.
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueEmail } from '../support/accounts.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';
import { uploadDocument, waitForExtraction } from './support/documents.ts';
import { signUpThroughForm } from './support/people.ts';
import { linkMailedTo, serviceRest } from './support/quotes.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const SHOTS = join(import.meta.dirname, '../../test-results/screenshots');
const CORPUS = join(import.meta.dirname, '../fixtures/documents');

/** A 100-character email: the facts panel must wrap or cut it, never widen the page. */
const longEmail = () => `${'long.address.'.repeat(5)}${Date.now().toString(36)}@${'wide'.repeat(6)}.example`.slice(-100);

async function sideways(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

async function accountOf(email: string): Promise<string> {
  const [{ account_id: accountId }] = await serviceRest<{ account_id: string }[]>(`users?select=account_id&email=eq.${encodeURIComponent(email)}`);
  return accountId;
}

async function draftQuote(accountId: string, clientEmail: string) {
  const [contact] = await serviceRest<{ id: string }[]>('contacts', { method: 'POST', body: { account_id: accountId, name: 'Rita Record', email: clientEmail, company: 'Record Co' } });
  const [quote] = await serviceRest<{ id: string }[]>('quotes', {
    method: 'POST',
    body: { account_id: accountId, contact_id: contact.id, currency: 'USD', expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString() },
  });
  await serviceRest('quote_items', { method: 'POST', body: [{ quote_id: quote.id, description: 'Setup', qty: 1, unit_price: 10_000, total: 10_000, position: 0 }] });
  return { quoteId: quote.id, contactId: contact.id };
}

describe('record pages', () => {
  let visitor: Awaited<ReturnType<typeof newVisitor>>;
  let accountId: string;
  const pages: Record<string, string> = {};

  beforeAll(async () => {
    visitor = await newVisitor(browser(), { javaScript: true, baseURL });
    visitor.page.setDefaultTimeout(20_000);
    const admin = await signUpThroughForm(visitor.page, { first: 'Reco', last: 'Pages', label: 'e2e-record-pages' });
    accountId = await accountOf(admin);
  }, 90_000);

  it('a draft quote shows its status in the header and no empty facts; its timeline reads newest first with who acted once sent and viewed', async () => {
    const { page } = visitor;
    const clientEmail = uniqueEmail('e2e-record-client');
    const { quoteId, contactId } = await draftQuote(accountId, clientEmail);
    pages.quote = `/quotes/${quoteId}`;
    pages.client = `/clients/${contactId}`;
    await page.goto(pages.quote);
    const header = page.getByTestId('record-header');
    await header.locator('[data-status="draft"]').waitFor();
    const facts = page.getByTestId('record-facts');
    const labels = await facts.locator('dt').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['Client', 'Currency', 'Expires']));
    for (const empty of ['Sent', 'Viewed', 'Signed', 'Signed by', 'Declined', 'Decline reason', 'Revision of', 'Replaced by']) expect(labels).not.toContain(empty);
    expect(await facts.getByText('—', { exact: true }).count()).toBe(0);
    // Only what a draft allows.
    await header.getByRole('link', { name: 'Edit', exact: true }).waitFor();
    expect(await header.getByRole('button', { name: 'Revise' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Sent by the admin, then opened by the client from the mailed link.
    await header.getByRole('button', { name: 'Send', exact: true }).click();
    await waitForToast(page, `Quote sent to ${clientEmail}`);
    const link = await linkMailedTo(clientEmail, /http:\/\/127\.0\.0\.1:\d+\/q\/[A-Za-z0-9_-]{43}/);
    const client = await newVisitor(browser(), { javaScript: false, baseURL });
    await client.page.goto(link);
    await client.page.getByText('Setup').first().waitFor();
    await client.context.close();

    await page.reload();
    await header.locator('[data-status="viewed"]').waitFor();
    const timeline = page.getByTestId('timeline').getByRole('listitem');
    const texts = await timeline.locator('p').allTextContents();
    // The lifecycle, newest first (the items the test's own set-up wrote as System may sit between).
    const lifecycle = texts.filter((text) => /^(Viewed|Sent|Created) by /.test(text));
    expect(lifecycle.map((text) => text.replace(/ by .*/, ''))).toEqual(['Viewed', 'Sent', 'Created']);
    expect(texts[0]).toMatch(/^Viewed by Rita Record \(.+\), client$/);
    expect(lifecycle[1]).toBe('Sent by Reco Pages');
    const times = await timeline.locator('time').evaluateAll((nodes) => nodes.map((node) => Date.parse(node.getAttribute('datetime')!)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Now the moments are facts of the timeline, not of the panel.
    expect(await page.getByTestId('record-facts').locator('dt').allTextContents()).not.toContain('Sent');
  }, 120_000);

  it('a document page frames its file from our own origin and shows the text each field was read from', async () => {
    const { page } = visitor;
    const title = `Olivar ${Date.now() % 100000}`;
    const bytes = Buffer.concat([readFileSync(join(CORPUS, 'factura-es-olivar.pdf')), Buffer.from(`\n% ${crypto.randomUUID()}\n`)]);
    await uploadDocument(page, title, { name: 'factura-es-olivar.pdf', mimeType: 'application/pdf', buffer: bytes });
    await waitForExtraction(page);
    pages.document = new URL(page.url()).pathname;
    const view = `${pages.document}/view`;
    const frame = page.getByTestId('document-frame').locator('iframe');
    expect(await frame.getAttribute('src')).toBe(view);
    expect(await frame.getAttribute('title')).toBe(`The pages of ${title}`);
    // The frame's file: the PDF, as data in a sandbox, framed by our pages only.
    const file = await page.request.get(view);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect(file.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'; sandbox");
    expect(file.headers()['x-content-type-options']).toBe('nosniff');
    expect(file.headers()['x-frame-options']).toBe('SAMEORIGIN');
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
    // The frame loaded it (the browser did not refuse to frame it).
    await expect.poll(() => page.frames().some((f) => f.url().endsWith(view))).toBe(true);

    // Where the invoice number was read: its line of the text, the value highlighted.
    const number = page.getByLabel('Invoice number').locator('xpath=ancestor::div[contains(@class,"grid")][2]');
    const source = number.getByTestId('field-source');
    expect(await source.textContent()).toMatch(/Factura Nº: OS-2025\/118 Fecha/);
    expect(await source.locator('mark').textContent()).toBe('OS-2025/118');
    // An amount written the document's way: 1.430,00 for 1430.00.
    expect(await page.getByTestId('field-source').locator('mark').allTextContents()).toContain('1.430,00');
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 120_000);

  it('every record page puts the status and facts before the history at 390 px, scrolls sideways at neither width, and passes axe', async () => {
    const { page } = visitor;
    const [lead] = await serviceRest<{ id: string }[]>('leads', {
      method: 'POST',
      body: { account_id: accountId, name: 'Lena Lead', email: longEmail(), company: 'Leads Ltd', source: 'website', interest: [], status: 'new' },
    });
    const [bill] = await serviceRest<{ id: string }[]>('bills', {
      method: 'POST',
      body: { account_id: accountId, supplier_name: 'Paper Supplies', supplier_email: longEmail(), currency: 'EUR', total: 12_345 },
    });
    pages.lead = `/leads/${lead.id}`;
    pages.bill = `/bills/${bill.id}`;
    // An invoice through its dialog (its number and amounts are the database's).
    await page.goto('/invoices?new');
    const dialog = page.getByRole('dialog', { name: 'Create New Invoice' });
    await dialog.getByLabel('Client name').fill('Ivy Invoice');
    await dialog.getByLabel('Client email').fill(longEmail());
    await dialog.getByLabel('Description').fill('Consulting');
    await dialog.getByLabel('Unit price').fill('100');
    await dialog.getByLabel('Currency').selectOption('USD');
    await dialog.getByLabel('Due date').fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await waitForToast(page, 'Invoice created successfully!');
    const [invoice] = await serviceRest<{ id: string }[]>(`invoices?select=id&account_id=eq.${accountId}&client_name=eq.Ivy%20Invoice`);
    pages.invoice = `/invoices/${invoice.id}`;
    expect(Object.keys(pages).sort()).toEqual(['bill', 'client', 'document', 'invoice', 'lead', 'quote']);

    for (const [name, path] of Object.entries(pages)) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await sideways(page), `${name} at ${width} px`).toBeLessThanOrEqual(0);
        const status = await page.getByTestId('record-header').locator('[data-status]').first().boundingBox();
        const facts = await page.getByTestId('facts-panel').first().boundingBox();
        const history = await page.getByRole('heading', { name: 'History' }).boundingBox();
        expect(status, `${name}: a status badge in the header`).not.toBeNull();
        if (width === 390) {
          expect(status!.y, `${name}: status before history`).toBeLessThan(history!.y);
          expect(facts!.y, `${name}: facts before history`).toBeLessThan(history!.y);
        }
        await shoot(page, `record-${name}`);
      }
      expect(await seriousAxeViolations(page), name).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 240_000);
});

async function lineDescriptions(page: Page): Promise<string[]> {
  const lines = page.getByRole('group', { name: /^Line \d+$/ });
  const values: string[] = [];
  for (let i = 0; i < (await lines.count()); i += 1) values.push(await lines.nth(i).getByLabel('Description').inputValue());
  return values;
}

for (const javaScript of [true, false]) {
  describe(`the line editor with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('is one row per line with its total, and adds, moves and removes lines', async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(20_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      const admin = await signUpThroughForm(page, { first: `Lines${javaScript ? 'Js' : 'Nojs'}`, last: 'Editor', label: 'e2e-line-editor' });
      const { quoteId } = await draftQuote(await accountOf(admin), uniqueEmail('e2e-line-client'));
      await page.goto(`/quotes/${quoteId}/edit`);
      await page.getByRole('group', { name: 'Line 1', exact: true }).waitFor();
      for (const [n, description, quantity, price] of [
        [2, 'Hosting', '12', '9.99'],
        [3, 'Throwaway', '1', '1'],
      ] as const) {
        await page.getByRole('button', { name: 'Add line' }).click();
        const line = page.getByRole('group', { name: `Line ${n}`, exact: true });
        await line.waitFor();
        await line.getByLabel('Description').fill(description);
        await line.getByLabel('Quantity').fill(quantity);
        await line.getByLabel('Unit price').fill(price);
      }
      // A line is one row: far shorter than the 200 px fieldset it replaced (measured once the
      // stylesheet of the page the server answered has loaded).
      await page.waitForLoadState('load');
      const box = await page.getByRole('group', { name: 'Line 2', exact: true }).boundingBox();
      expect(box!.height).toBeLessThan(80);
      await page.getByRole('button', { name: 'Move line 3 up' }).click();
      await expect.poll(() => lineDescriptions(page)).toEqual(['Setup', 'Throwaway', 'Hosting']);
      // Each line's total, as typed (with JavaScript, as typed; without, as the server last saw the form).
      expect(await page.getByRole('group', { name: 'Line 3', exact: true }).textContent()).toContain('$119.88');
      await page.getByRole('button', { name: 'Remove line 2' }).click();
      await expect.poll(() => lineDescriptions(page)).toEqual(['Setup', 'Hosting']);
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      await shoot(page, `line-editor-${javaScript ? 'js' : 'nojs'}`);
      await page.getByRole('button', { name: 'Save quote' }).click();
      await waitForToast(page, 'Quote saved');
      expect(await page.getByRole('main').getByRole('table').getByRole('row').allTextContents()).toEqual([
        'DescriptionQtyUnit priceAmount',
        'Setup1$100.00$100.00',
        'Hosting12$9.99$119.88',
      ]);
      if (javaScript) expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  });
}
