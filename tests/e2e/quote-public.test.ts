// The client's side of a quote in Chromium, JavaScript on and off (decision
// 030), and the staff's side once it is signed: the quote_send job (the app's
// own runner, triggered as the Cron Trigger would) mails the link; a fresh
// browser opens it from the outbox, signs with a typed name (and, with
// JavaScript, a drawn signature made with the mouse and from the keyboard),
// sees it signed; the admins' mail arrives. Then the signed quote, on to paid:
// Northwind's admin converts it ("Convert to invoice" lands on the new INV-…
// with the quote's lines and total; a second try from a tab opened before
// says it was already converted and links to that invoice), downloads its
// PDF, sends it; the client opens the /i/ link of the mail in a fresh browser
// without a session; a partial then a full payment make it Paid, there and on
// the public view. The decline path; no serious accessibility violations.
// (tests/e2e/invoices.test.ts proves the New Invoice dialog.)
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_NORTHWIND_ADMIN } from '../support/accounts.ts';
import { readOutbox } from '../support/confirmation-mail.ts';
import { pageTexts } from '../support/pdf.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';
import { signInThroughForm } from './support/people.ts';
import { linkMailedTo, runJobs, sentQuoteLink, serviceRest, type SentQuote } from './support/quotes.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');

const quoteRow = async (id: string) =>
  (await serviceRest<Record<string, unknown>[]>(`quotes?select=status,signer_name,signature_png,decline_reason&id=eq.${id}`))[0];

for (const javaScript of [true, false]) {
  describe(`the public quote page with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    /** The quote the first test signs; the second takes it on to a paid invoice. */
    let signed: SentQuote | undefined;

    it('opens the mailed link in a fresh browser, accepts with a typed signature, shows it signed; the admins are mailed', async () => {
      const quote = await sentQuoteLink();
      const { page, errors, context } = await newVisitor(browser(), { javaScript, baseURL });
      const response = await page.goto(quote.link);
      expect(response?.status()).toBe(200);
      await page.getByText(quote.number).first().waitFor();
      for (const text of ['Consultation', 'Design', 'Support (monthly)', '£750.00', '£150.00', '£900.00', 'Delivery within two weeks.']) {
        expect(await page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
      }
      expect((await quoteRow(quote.id)).status).toBe('viewed');
      // One main heading, and the PDF to download before signing (issue 31).
      expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([`Quote ${quote.number}`]);
      await expectPdfLink(page, quote.number);

      await page.getByLabel('Full name').fill('Grace Hopper');
      if (javaScript) {
        // From the keyboard: the typed name becomes the drawn signature; then the mouse adds a stroke.
        await page.getByRole('button', { name: 'Use my typed name' }).focus();
        await page.keyboard.press('Enter');
        const box = (await page.getByTestId('signature-canvas').boundingBox())!;
        await page.mouse.move(box.x + 20, box.y + box.height - 20);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width - 20, box.y + box.height - 25, { steps: 8 });
        await page.mouse.up();
        expect(await page.locator('input[name="signature"]').inputValue()).toMatch(/^data:image\/png;base64,/);
      }
      // Agree is required: without it the page says so and keeps the name.
      await page.getByRole('button', { name: 'Accept and sign' }).click();
      if (!javaScript) {
        await page.getByText('Tick the box to agree to the quote').waitFor();
        expect(await page.getByLabel('Full name').inputValue()).toBe('Grace Hopper');
      }
      await page.getByLabel('I agree to this quote and sign it with the name above').check();
      await page.getByRole('button', { name: 'Accept and sign' }).click();
      await page.getByRole('heading', { name: 'Thank you, this quote is signed' }).waitFor();
      expect(await page.getByText(/Signed by Grace Hopper on/).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Accept and sign' }).count()).toBe(0);
      expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([`Quote ${quote.number}`]);
      await expectPdfLink(page, quote.number);
      expect(await seriousAxeViolationsOf(page, javaScript)).toEqual([]);

      const row = await quoteRow(quote.id);
      expect(row.status).toBe('signed');
      expect(row.signer_name).toBe('Grace Hopper');
      expect(Boolean(row.signature_png)).toBe(javaScript);

      await runJobs();
      await runJobs();
      const subjects = (await readOutbox(backendUrl)).filter((m) => m.to === 'admin@northwind.test').map((m) => m.subject);
      expect(subjects).toContain(`Quote ${quote.number} was accepted by Grace Hopper`);
      // Without JavaScript the refused post is a page answered with a 400, which the console reports.
      expect(errors.filter((e) => javaScript || !e.includes('status of 400'))).toEqual([]);
      await context.close();
      signed = quote;
    });

    it('is converted to an invoice once, downloaded, sent, opened by the client from the mail, paid in part then in full', async () => {
      if (!signed) throw new Error('the signing test above failed: there is no signed quote to convert');
      const quote = signed;
      const staff = await newVisitor(browser(), { javaScript, baseURL });
      const { page } = staff;
      page.setDefaultTimeout(15_000);
      await signInThroughForm(page, DEMO_NORTHWIND_ADMIN);
      // A second tab on the quote, opened before the conversion: its Convert is the second try.
      const stale = await staff.context.newPage();
      await stale.goto(`/quotes/${quote.id}`);

      await page.goto(`/quotes/${quote.id}`);
      await page.getByRole('button', { name: 'Convert to invoice' }).click();
      await waitForToast(page, 'Invoice created successfully!');
      const heading = page.getByRole('heading', { level: 1, name: /^INV-\d{4}-\d{4}$/ });
      await heading.waitFor();
      const number = (await heading.textContent())!;
      const invoicePath = new URL(page.url()).pathname;
      expect(invoicePath).toMatch(/^\/invoices\/[0-9a-f-]{36}$/);
      expect(await page.getByRole('status').getByRole('link', { name: `View invoice ${number}` }).getAttribute('href')).toBe(invoicePath);
      const main = page.getByRole('main');
      for (const text of ['Grace Client', quote.clientEmail, 'Consultation', 'Design', 'Support (monthly)', '£750.00', '£150.00', '£900.00', 'Delivery within two weeks.']) {
        expect(await main.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
      }
      expect(await page.getByTestId('balance').textContent()).toBe('£900.00');
      await page.locator('[data-status="draft"]').first().waitFor();

      await stale.getByRole('button', { name: 'Convert to invoice' }).click();
      const already = stale.getByRole('status').filter({ hasText: `Already converted to ${number}` });
      await already.waitFor({ timeout: 15_000 });
      expect(await already.getByRole('link', { name: `View invoice ${number}` }).getAttribute('href')).toBe(invoicePath);
      // The quote's page now links to its invoice instead of offering to convert again.
      expect(await stale.getByRole('button', { name: 'Convert to invoice' }).count()).toBe(0);
      await stale.close();
      expect(await serviceRest<unknown[]>(`invoices?select=id&quote_id=eq.${quote.id}`)).toHaveLength(1);

      // Download: the PDF of the invoice's page, read back as a viewer would.
      const pdfHref = await page.getByRole('link', { name: 'Download', exact: true }).getAttribute('href');
      expect(pdfHref).toBe(`${invoicePath}/pdf`);
      const pdf = await staff.context.request.get(pdfHref!);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      expect(pdf.headers()['content-disposition']).toBe(`attachment; filename="${number}.pdf"`);
      const text = (await pageTexts(new Uint8Array(await pdf.body()))).join('\n');
      expect(text).toContain(number);
      expect(text).toContain('£900.00');

      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await waitForToast(page, `Invoice sent to ${quote.clientEmail}`);

      // The client's view: a fresh browser, no session, the link from the mail.
      const link = await linkMailedTo(quote.clientEmail, /https?:\/\/[^\s/]+\/i\/[A-Za-z0-9_-]{43}/);
      const client = await newVisitor(browser(), { javaScript, baseURL });
      expect((await client.page.goto(link))?.status()).toBe(200);
      await client.page.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor();
      for (const text of ['Consultation', 'Design', 'Support (monthly)', '£900.00']) {
        expect(await client.page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
      }
      if (javaScript) expect(await seriousAxeViolations(client.page)).toEqual([]);

      await page.getByLabel('Amount (GBP)').fill('400');
      await page.getByRole('button', { name: 'Record payment' }).click();
      await waitForToast(page, 'Payment recorded');
      await expect.poll(() => page.getByTestId('balance').textContent()).toBe('£500.00');
      await page.locator('[data-status="pending"]').first().waitFor();

      // The amount offered is the balance: the rest, in full.
      expect(await page.getByLabel('Amount (GBP)').inputValue()).toBe('500.00');
      await page.getByRole('button', { name: 'Record payment' }).click();
      await page.locator('[data-status="paid"]').first().waitFor();
      expect(await page.getByTestId('balance').textContent()).toBe('£0.00');
      expect(await page.getByRole('button', { name: 'Record payment' }).count()).toBe(0);

      // The client's view, reloaded, says so too.
      await client.page.reload();
      await client.page.locator('[data-status="paid"]').first().waitFor();
      expect(client.errors).toEqual([]);
      await client.context.close();
      expect(staff.errors).toEqual([]);
      await staff.context.close();
    }, 90_000);

    it('declines with a reason, and the page says so', async () => {
      const quote = await sentQuoteLink();
      const { page, errors, context } = await newVisitor(browser(), { javaScript, baseURL });
      await page.goto(quote.link);
      expect(await seriousAxeViolationsOf(page, javaScript)).toEqual([]);
      // Decline is the secondary answer: folded under Accept until asked for.
      expect(await page.getByLabel('Reason (optional)').isVisible()).toBe(false);
      await page.getByText('Not going ahead? Decline this quote').click();
      await page.getByLabel('Reason (optional)').fill('We chose another supplier.');
      await page.getByRole('button', { name: 'Decline', exact: true }).click();
      await page.getByRole('heading', { name: 'This quote was declined' }).waitFor();
      expect(await quoteRow(quote.id)).toMatchObject({ status: 'declined', decline_reason: 'We chose another supplier.' });
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe('a link that matches nothing', () => {
  it('is a 404 page that says so, without accessibility violations', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    const response = await page.goto(`/q/${'Z'.repeat(43)}`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Quote not found' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});

/** The page's Download PDF link fetches the quote's PDF, its number on the first page. */
async function expectPdfLink(page: Page, number: string): Promise<void> {
  const link = page.getByRole('link', { name: 'Download PDF' });
  expect(await link.count()).toBe(1);
  const response = await page.request.get(new URL((await link.getAttribute('href'))!, page.url()).toString());
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const [first] = await pageTexts(new Uint8Array(await response.body()));
  expect(first).toContain(number);
}

/**
 * axe runs as a script in the page; with JavaScript off the page is scanned
 * as the server renders it, in a second context that refuses the app's scripts.
 */
async function seriousAxeViolationsOf(page: Page, javaScript: boolean): Promise<string[]> {
  if (javaScript) return seriousAxeViolations(page);
  const { page: scan, context } = await newVisitor(browser(), { javaScript: true, baseURL });
  await context.route('**/*.js', (route) => route.abort());
  await scan.goto(page.url());
  const violations = await seriousAxeViolations(scan);
  await context.close();
  return violations;
}
