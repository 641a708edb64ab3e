// An invoice's life in Chromium, JavaScript on and off: created from the New
// Invoice dialog, sent (the mail leaves through the jobs runner), its public
// link opened from the local outbox in a fresh browser without a session,
// then a partial and a full payment recorded until it reads Paid; axe on the
// invoice's page and the public view.
import { describe, expect, inject, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail.ts';
import { uniqueEmail } from '../support/accounts.ts';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');

async function publicLinkMailedTo(email: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = (await readOutbox(backendUrl)).filter((m) => m.to === email).at(-1) as { text?: string } | undefined;
    const path = mail?.text && /\/i\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
    if (path) return path;
    if (Date.now() > deadline) throw new Error(`no invoice mail for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

for (const javaScript of [true, false]) {
  const tag = javaScript ? 'Js' : 'Nojs';
  describe(`an invoice with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('is created, sent, opened from the mail, paid in part then in full', async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(15_000);
      await signUpThroughForm(page, { first: `Ines${tag}`, last: 'Invoices', label: 'e2e-invoices' });
      const email = uniqueEmail(`e2e-billing-${tag.toLowerCase()}`);

      await page.goto('/invoices');
      await page.getByText('No invoices yet. Create your first invoice to get started!').waitFor();
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

      const list = page.getByRole('region', { name: 'Recent Invoices' });
      await list.getByRole('link', { name: /^View INV-/ }).click();
      await page.getByRole('heading', { level: 1, name: /^INV-\d{4}-\d{4}$/ }).waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await waitForToast(page, `Invoice sent to ${email}`);

      // The client's view: a fresh browser, no session, the link from the mail.
      const link = await publicLinkMailedTo(email);
      const client = await newVisitor(browser(), { javaScript, baseURL });
      await client.page.goto(link);
      await client.page.getByRole('heading', { level: 1, name: /^Invoice INV-/ }).waitFor();
      expect(await client.page.getByText('$100.00').count()).toBeGreaterThan(0);
      if (javaScript) expect(await seriousAxeViolations(client.page)).toEqual([]);
      await client.context.close();

      await page.getByLabel('Amount (USD)').fill('40');
      await page.getByRole('button', { name: 'Record payment' }).click();
      await waitForToast(page, 'Payment recorded');
      await page.locator('[data-status="pending"]').first().waitFor();
      await expect.poll(() => page.getByTestId('balance').textContent()).toBe('$60.00');

      // The amount offered is the balance: the rest, in full.
      expect(await page.getByLabel('Amount (USD)').inputValue()).toBe('60.00');
      await page.getByRole('button', { name: 'Record payment' }).click();
      await waitForToast(page, 'Payment recorded');
      await page.locator('[data-status="paid"]').first().waitFor();
      expect(await page.getByRole('button', { name: 'Record payment' }).count()).toBe(0);
      await page.getByText('Paid', { exact: true }).first().waitFor();

      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  });
}
