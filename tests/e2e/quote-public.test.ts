// The client's side of a quote in Chromium, JavaScript on and off (decision
// 030): the quote_send job (the app's own runner, triggered as the Cron
// Trigger would) mails the link; a fresh browser opens it from the outbox,
// signs with a typed name (and, with JavaScript, a drawn signature made with
// the mouse and from the keyboard), sees it signed; the admins' mail arrives;
// the decline path; no serious accessibility violations.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail.ts';
import { uniqueEmail } from '../support/accounts.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');
const serviceKey = inject('serviceRoleKey');

async function rest<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${backendUrl}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: serviceKey,
      authorization: `Bearer ${serviceKey}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The jobs runner, once, as the Cron Trigger runs it (wrangler dev --test-scheduled). */
async function runJobs(): Promise<void> {
  const response = await fetch(`${baseURL}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
  expect(response.ok).toBe(true);
}

/** A sent quote of the Northwind demo account (no email integration: the platform's mail API) with three items, sent (its quote_send job run): the link in the client's mail. */
async function sentQuoteLink(): Promise<{ id: string; number: string; link: string }> {
  const [{ account_id: accountId }] = await rest<{ account_id: string }[]>('users?select=account_id&email=eq.admin%40northwind.test');
  const clientEmail = uniqueEmail('e2e-client');
  const [contact] = await rest<{ id: string }[]>('contacts', { method: 'POST', body: { account_id: accountId, name: 'Grace Client', email: clientEmail } });
  const [quote] = await rest<{ id: string; quote_number: string }[]>('quotes', {
    method: 'POST',
    body: {
      account_id: accountId,
      contact_id: contact.id,
      currency: 'GBP',
      status: 'sent',
      tax_rate: 20,
      notes: 'Delivery within two weeks.',
      expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    },
  });
  await rest('quote_items', {
    method: 'POST',
    body: [
      { quote_id: quote.id, description: 'Consultation', qty: 1, unit_price: 20_000, total: 20_000, position: 0 },
      { quote_id: quote.id, description: 'Design', qty: 3, unit_price: 15_000, total: 45_000, position: 1 },
      { quote_id: quote.id, description: 'Support (monthly)', qty: 2, unit_price: 5_000, total: 10_000, position: 2 },
    ],
  });
  await rest('rpc/enqueue_job', {
    method: 'POST',
    body: { p_kind: 'quote_send', p_idempotency_key: `quote_send:${quote.id}`, p_account_id: accountId, p_subject_id: quote.id, p_payload: { quote_id: quote.id } },
  });
  await runJobs();
  const mail = (await readOutbox(backendUrl)).find((m) => m.to === clientEmail);
  const link = mail?.text.match(/http:\/\/127\.0\.0\.1:\d+\/q\/[A-Za-z0-9_-]{43}/)?.[0];
  if (!link) throw new Error(`no quote link mailed to ${clientEmail}`);
  return { id: quote.id, number: quote.quote_number, link };
}

const quoteRow = async (id: string) =>
  (await rest<Record<string, unknown>[]>(`quotes?select=status,signer_name,signature_png,decline_reason&id=eq.${id}`))[0];

for (const javaScript of [true, false]) {
  describe(`the public quote page with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
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
    });

    it('declines with a reason, and the page says so', async () => {
      const quote = await sentQuoteLink();
      const { page, errors, context } = await newVisitor(browser(), { javaScript, baseURL });
      await page.goto(quote.link);
      expect(await seriousAxeViolationsOf(page, javaScript)).toEqual([]);
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
