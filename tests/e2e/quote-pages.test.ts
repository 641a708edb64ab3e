// A quote as a person works on it in Chromium, JavaScript on and off: create
// it, open its page from the toast, edit it into three lines (lines added,
// one moved up, one removed: Conform's list buttons, applied in the browser
// with JavaScript and by the server without), see the totals the database
// computed, send it, and see it sent; the client opens the mailed link in a
// fresh browser and signs, and the quote's page shows it signed; its PDF ends
// with the signature certificate and the admin is mailed. Axe scans the quote's page and its edit
// page (in the JavaScript run: axe runs as a script in the page; the server
// renders the same screens for both).
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readOutbox } from '../support/confirmation-mail.ts';
import { pageTexts } from '../support/pdf.ts';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');

/** The link mailed to the client by the quote_send job (the runner is kicked by Send; run it once more as the Cron Trigger would). */
async function mailedLink(email: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const mail = (await readOutbox(backendUrl)).find((m) => m.to === email);
    const link = mail?.text.match(/http:\/\/127\.0\.0\.1:\d+\/q\/[A-Za-z0-9_-]{43}/)?.[0];
    if (link) return link;
    await fetch(`${baseURL}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
  }
  throw new Error(`no quote link mailed to ${email}`);
}

async function fillLine(page: Page, n: number, description: string, quantity: string, price: string) {
  const line = page.getByRole('group', { name: `Line ${n}`, exact: true });
  await line.getByLabel('Description').fill(description);
  await line.getByLabel('Quantity').fill(quantity);
  await line.getByLabel('Unit price').fill(price);
}

async function lineDescriptions(page: Page): Promise<string[]> {
  const lines = page.getByRole('group', { name: /^Line \d+$/ });
  const values: string[] = [];
  for (let i = 0; i < (await lines.count()); i += 1) values.push(await lines.nth(i).getByLabel('Description').inputValue());
  return values;
}

for (const javaScript of [true, false]) {
  const tag = javaScript ? 'Js' : 'Nojs';
  describe(`a quote's pages with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('creates, edits into three lines (add, move, remove), shows the totals, sends it, and sees it signed by the client', async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(15_000);
      const adminEmail = await signUpThroughForm(page, { first: `Quinn${tag}`, last: 'Quotes', label: 'e2e-quote-pages' });
      const email = `buyer-${tag.toLowerCase()}-${Date.now()}@quote-pages.test`;

      await page.goto('/quotes?new');
      const create = page.getByRole('dialog', { name: 'Create New Quote' });
      await create.getByLabel('Contact name').fill(`Buyer ${tag}`);
      await create.getByLabel('Contact email').fill(email);
      await create.getByLabel('Company').fill('Buyer Co');
      await create.getByLabel('Description').fill('First draft line');
      await create.getByLabel('Unit price').fill('1');
      await create.getByRole('button', { name: 'Create Quote', exact: true }).click();
      await waitForToast(page, `Quote Q-${new Date().getUTCFullYear()}-`);
      await page.getByRole('status').getByRole('link', { name: 'View quote' }).click();
      await page.waitForURL(/\/quotes\/[0-9a-f-]{36}$/);
      const heading = page.getByRole('heading', { level: 1, name: /^Q-\d{4}-\d+$/ });
      await heading.waitFor();
      const number = (await heading.textContent())!;
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      // Edit: four lines, the third moved up, the (new) third removed: three remain.
      await page.getByRole('main').getByRole('link', { name: 'Edit', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Edit ${number}` }).waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      await fillLine(page, 1, 'Design', '2', '50');
      for (const [n, description, quantity, price] of [
        [2, 'Throwaway', '1', '1'],
        [3, 'Hosting', '12', '9.99'],
        [4, 'Support', '1', '100'],
      ] as const) {
        await page.getByRole('button', { name: 'Add line' }).click();
        await page.getByRole('group', { name: `Line ${n}`, exact: true }).waitFor();
        await fillLine(page, n, description, quantity, price);
      }
      await page.getByRole('button', { name: 'Move line 3 up' }).click();
      await expect.poll(() => lineDescriptions(page)).toEqual(['Design', 'Hosting', 'Throwaway', 'Support']);
      await page.getByRole('button', { name: 'Remove line 3' }).click();
      await expect.poll(() => lineDescriptions(page)).toEqual(['Design', 'Hosting', 'Support']);
      await page.getByLabel('Tax rate (%)').fill('20');
      await page.getByLabel('Discount (%)').fill('10');
      // Enter in a field saves (it does not press a line's Move button).
      await page.getByLabel('Discount (%)').press('Enter');
      await waitForToast(page, 'Quote saved');
      await page.waitForURL(/\/quotes\/[0-9a-f-]{36}$/);

      // 319.88 − 10% (31.99) = 287.89; + 20% tax (57.58) = 345.47, computed by the database.
      const items = page.getByRole('table');
      expect(await items.getByRole('row').allTextContents()).toEqual([
        'DescriptionQtyUnit priceAmount',
        'Design2$50.00$100.00',
        'Hosting12$9.99$119.88',
        'Support1$100.00$100.00',
      ]);
      const main = page.getByRole('main');
      await main.getByText('Discount (10%)').waitFor();
      await main.getByText('−$31.99').waitFor();
      await main.getByText('$57.58').waitFor();
      await main.getByText('$345.47').waitFor();

      // Send.
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await waitForToast(page, `Quote sent to ${email}`);
      await main.locator('[data-status="sent"]').waitFor();
      await main.getByRole('button', { name: 'Revise' }).waitFor();
      expect(await main.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      // The client signs from the mailed link, in a browser of their own.
      const client = await newVisitor(browser(), { javaScript, baseURL });
      await client.page.goto(await mailedLink(email));
      await client.page.getByText(number).first().waitFor();
      await client.page.getByLabel('Full name').fill(`Signer ${tag}`);
      await client.page.getByLabel('I agree to this quote and sign it with the name above').check();
      await client.page.getByRole('button', { name: 'Accept and sign' }).click();
      await client.page.getByRole('heading', { name: 'Thank you, this quote is signed' }).waitFor();
      await client.context.close();

      // The quote's page: signed, by whom; a signed quote is not revised.
      await page.reload();
      await main.locator('[data-status="signed"]').waitFor();
      await main.getByText(new RegExp(`^Signer ${tag}`)).waitFor();
      expect(await main.getByRole('button', { name: 'Revise' }).count()).toBe(0);

      // Its PDF, as the Download link gives it: the quote, then the signature certificate.
      const href = await main.getByRole('link', { name: /Download PDF/ }).getAttribute('href');
      const download = await page.request.get(href!);
      expect(download.headers()['content-type']).toBe('application/pdf');
      const pages = await pageTexts(new Uint8Array(await download.body()));
      expect(pages[0]).toContain(number);
      expect(pages[0]).toContain('Hosting');
      expect(pages.at(-1)).toContain('Signature certificate');
      expect(pages.at(-1)).toContain(`Signer ${tag}`);
      // And the account's admin was told.
      await expect.poll(async () => {
        await fetch(`${baseURL}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
        return (await readOutbox(backendUrl)).filter((m) => m.to === adminEmail).map((m) => m.subject);
      }, { timeout: 20_000 }).toContain(`Quote ${number} was accepted by Signer ${tag}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
