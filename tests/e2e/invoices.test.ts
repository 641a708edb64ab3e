// The New Invoice dialog in Chromium, JavaScript on and off, as the Northwind
// demo admin: the dialog's one line makes a real draft, the toast says so and
// names it, the list shows it and its View opens its page with the line, the
// total and the client; axe on that page. Sending, the public view from the
// mail and the payments are proven on a signed quote's invoice (quote-public
// .test.ts); editing a draft and going overdue in invoice-edit.test.ts; the
// empty book in the worker layer (tests/worker/invoices.test.ts).
import { describe, expect, inject, it } from 'vitest';
import { DEMO_NORTHWIND_ADMIN, uniqueEmail } from '../support/accounts.ts';
import { signInThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

for (const javaScript of [true, false]) {
  const tag = javaScript ? 'Js' : 'Nojs';
  describe(`the New Invoice dialog with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('creates a draft the list shows and its page opens', async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(15_000);
      await signInThroughForm(page, DEMO_NORTHWIND_ADMIN);
      const email = uniqueEmail(`e2e-billing-${tag.toLowerCase()}`);

      await page.goto('/invoices');
      await page.getByRole('link', { name: 'New Invoice' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New Invoice' });
      await dialog.getByLabel('Client name').fill(`Acme ${tag}`);
      await dialog.getByLabel('Client email').fill(email);
      await dialog.getByLabel('Description').fill('Consulting, March');
      await dialog.getByLabel('Unit price').fill('100');
      await dialog.getByLabel('Currency').selectOption('USD');
      await dialog.getByLabel('Due date').fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
      await dialog.getByRole('button', { name: 'Create Invoice' }).click();
      await waitForToast(page, 'Invoice created successfully!');
      const named = await page.getByRole('status').getByRole('link', { name: /^View INV-\d{4}-\d{4}$/ }).textContent();
      const number = named!.replace('View ', '');

      const list = page.getByRole('region', { name: 'Recent Invoices' });
      await list.getByRole('link', { name: number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: number }).waitFor();
      const main = page.getByRole('main');
      for (const text of [`Acme ${tag}`, email, 'Consulting, March', 'USD']) {
        expect(await main.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
      }
      expect(await page.getByTestId('balance').textContent()).toBe('$100.00');
      await page.locator('[data-status="draft"]').first().waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  });
}
