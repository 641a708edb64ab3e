// A draft invoice edited in Chromium, JavaScript on and off: created from the
// New Invoice dialog, opened, edited (a line added with Conform's list
// button, applied in the browser with JavaScript and by the server without;
// the due date moved; saved), its new total on its page as the database
// computed it; then sent, and made overdue by moving the jobs runner's clock
// past the due date (the Cron Trigger's scheduled time, which the overdue
// sweep takes as "now"): the page says Overdue and the reminder is in the
// outbox. Axe scans the edit page.
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readOutbox } from '../support/confirmation-mail.ts';
import { uniqueEmail } from '../support/accounts.ts';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/** One tick of the jobs runner with its clock at `at` (wrangler dev --test-scheduled: `time` is the scheduled time in ms). */
async function runJobsAt(at: number): Promise<void> {
  const response = await fetch(`${baseURL}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*&time=${at}`);
  expect(response.ok).toBe(true);
}

async function fillLine(page: Page, n: number, description: string, quantity: string, price: string) {
  const line = page.getByRole('group', { name: `Line ${n}`, exact: true });
  await line.getByLabel('Description').fill(description);
  await line.getByLabel('Quantity').fill(quantity);
  await line.getByLabel('Unit price').fill(price);
}

for (const javaScript of [true, false]) {
  const tag = javaScript ? 'Js' : 'Nojs';
  describe(`a draft invoice edited with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('adds a line and moves the due date, shows the new total, is sent, then goes overdue when the clock passes its due date', async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(15_000);
      await signUpThroughForm(page, { first: `Edna${tag}`, last: 'Invoices', label: 'e2e-invoice-edit' });
      const email = uniqueEmail(`e2e-invoice-edit-${tag.toLowerCase()}`);

      await page.goto('/invoices?new');
      const dialog = page.getByRole('dialog', { name: 'Create New Invoice' });
      await dialog.getByLabel('Client name').fill(`Edits ${tag}`);
      await dialog.getByLabel('Client email').fill(email);
      await dialog.getByLabel('Description').fill('Consulting, March');
      await dialog.getByLabel('Unit price').fill('100');
      await dialog.getByLabel('Currency').selectOption('USD');
      await dialog.getByLabel('Due date').fill(day(30));
      await dialog.getByRole('button', { name: 'Create Invoice' }).click();
      await waitForToast(page, 'Invoice created successfully!');
      await page.getByRole('region', { name: 'Recent Invoices' }).getByRole('link', { name: /^INV-/ }).first().click();
      const heading = page.getByRole('heading', { level: 1, name: /^INV-\d{4}-\d{4}$/ });
      await heading.waitFor();
      const number = (await heading.textContent())!;
      const main = page.getByRole('main');

      // Edit: a second line, a due date tomorrow, 10% tax.
      await main.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Edit ${number}` }).waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Add line' }).click();
      await page.getByRole('group', { name: 'Line 2', exact: true }).waitFor();
      await fillLine(page, 2, 'Hosting', '3', '12.50');
      await page.getByLabel('Due date').fill(day(1));
      await page.getByLabel('Tax rate (%)').fill('10');
      await page.getByRole('button', { name: 'Save invoice' }).click();
      await waitForToast(page, 'Invoice saved');
      await page.waitForURL(/\/invoices\/[0-9a-f-]{36}$/);

      // 100.00 + 3 × 12.50 = 137.50; + 10% tax (13.75) = 151.25, computed by the database.
      expect(await main.getByRole('table').getByRole('row').allTextContents()).toEqual([
        'DescriptionQtyUnit priceAmount',
        'Consulting, March1$100.00$100.00',
        'Hosting3$12.50$37.50',
      ]);
      await main.getByText('$13.75').waitFor();
      expect(await main.getByTestId('balance').textContent()).toBe('$151.25');

      // Sent: no more Edit.
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await waitForToast(page, `Invoice sent to ${email}`);
      await main.locator('[data-status="sent"]').first().waitFor();
      expect(await main.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);

      // The clock moved past the due date (each run a minute later, so each queues its own sweep).
      const later = Date.now() + 3 * DAY + (javaScript ? 0 : 2 * 3_600_000);
      const reminder = `Reminder: invoice ${number}`;
      let tick = 0;
      await expect
        .poll(async () => {
          await runJobsAt(later + tick++ * 60_000);
          return (await readOutbox(backendUrl)).filter((m) => m.to === email).map((m) => m.subject);
        }, { timeout: 30_000 })
        .toContainEqual(expect.stringContaining(reminder));
      await page.reload();
      await main.locator('[data-status="overdue"]').first().waitFor();
      await main.getByText('Overdue', { exact: true }).first().waitFor();

      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  });
}
