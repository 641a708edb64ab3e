// A lead and a client as a person works on them in Chromium, JavaScript on and
// off: open a lead from the list, edit it, change its status, convert it to a
// client and on to a quote for it, delete it behind a confirmation that starts
// on Cancel (with JavaScript: Escape closes it and focus returns), and axe
// scans of the new screens (in the JavaScript run: axe runs as a script in the
// page; the server renders the same screens for both).
import { describe, expect, inject, it } from 'vitest';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

for (const javaScript of [true, false]) {
  const tag = javaScript ? 'Js' : 'Nojs';
  describe(`a lead's and a client's page with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('opens, edits, moves, converts to a client and a quote, then deletes a lead', async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(15_000);
      await signUpThroughForm(page, { first: `Rhea${tag}`, last: 'Records', label: 'e2e-lead-page' });

      await page.goto('/leads?new');
      const create = page.getByRole('dialog', { name: 'New Lead' });
      await create.getByLabel('Full name').fill(`Ada ${tag}`);
      await create.getByLabel('Email').fill('ada@engine.test');
      await create.getByLabel('Company').fill('Analytical Engines');
      await create.getByRole('button', { name: 'Create Lead', exact: true }).click();
      await waitForToast(page, `Lead Ada ${tag} created`);

      // Open it from the list (the row's link).
      const list = page.getByRole('region', { name: 'Recent Leads' });
      await list.getByRole('link', { name: `Ada ${tag}` }).click();
      await page.getByRole('heading', { level: 1, name: `Ada ${tag}` }).waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      // A status change on the page (the list's rows have no status control: they open the lead).
      await page.getByLabel('Status', { exact: true }).selectOption('contacted');
      await page.getByRole('button', { name: `Update status of Ada ${tag}` }).click();
      await waitForToast(page, 'Lead status updated');

      // Edit.
      await page.getByRole('main').getByRole('link', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Lead' });
      await edit.waitFor();
      expect(await edit.getByLabel('Full name').inputValue()).toBe(`Ada ${tag}`);
      await edit.getByLabel('Job role').fill('Countess');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await waitForToast(page, 'Lead updated');
      await page.getByText('Role: (empty) → Countess').waitFor();

      // Status on the page.
      await page.getByLabel('Status', { exact: true }).selectOption('qualified');
      await page.getByRole('button', { name: `Update status of Ada ${tag}` }).click();
      await waitForToast(page, 'Lead status updated');
      await page.getByText('Status: contacted → qualified').waitFor();

      // Convert to a client: the toast links to it.
      await page.getByRole('button', { name: 'Convert to client' }).click();
      await waitForToast(page, `Client Ada ${tag} created`);
      const toast = page.getByRole('status').filter({ hasText: `Client Ada ${tag} created` });
      await toast.getByRole('link', { name: 'View client' }).click();
      await page.waitForURL(/\/clients\/[0-9a-f-]{36}$/);
      await page.getByRole('heading', { level: 1, name: `Ada ${tag}` }).waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      // A quote for it, the client already chosen.
      await page.getByRole('main').getByRole('link', { name: 'New quote' }).click();
      const quote = page.getByRole('dialog', { name: 'Create New Quote' });
      await quote.waitFor();
      expect(await quote.getByLabel('Existing client').locator('option:checked').textContent()).toContain(`Ada ${tag}`);
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      await quote.getByLabel('Description').fill('Difference engine');
      await quote.getByLabel('Unit price').fill('1000');
      await quote.getByRole('button', { name: 'Create Quote', exact: true }).click();
      await waitForToast(page, `Quote Q-${new Date().getUTCFullYear()}-`);
      const quoteLink = page.getByRole('status').getByRole('link', { name: 'View quote' });
      expect(await quoteLink.getAttribute('href')).toMatch(/^\/quotes\/[0-9a-f-]{36}$/);

      // The client has a quote: its delete says why not.
      await page.goto('/clients');
      await page.getByRole('region', { name: 'Client Directory' }).getByRole('link', { name: `Ada ${tag}` }).click();
      await page.getByRole('main').getByRole('link', { name: 'Delete', exact: true }).click();
      const refused = page.getByRole('dialog', { name: 'Delete client' });
      await refused.getByText('This client has quotes, so it cannot be deleted.').waitFor();
      expect(await refused.getByRole('button', { name: 'Delete' }).count()).toBe(0);

      // Back to the lead, and delete it.
      await page.goto('/leads');
      await page.getByRole('region', { name: 'Recent Leads' }).getByRole('link', { name: `Ada ${tag}` }).click();
      const deleteLink = page.getByRole('main').getByRole('link', { name: 'Delete', exact: true });
      if (javaScript) {
        // Keyboard: the dialog starts on Cancel, Escape closes it, focus returns to Delete.
        await deleteLink.focus();
        await page.keyboard.press('Enter');
        const confirm = page.getByRole('dialog', { name: 'Delete lead' });
        await confirm.waitFor();
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
        if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await expect.poll(() => confirm.count()).toBe(0);
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
        await page.keyboard.press('Enter');
        await confirm.waitFor();
      } else {
        await deleteLink.click();
      }
      const confirm = page.getByRole('dialog', { name: 'Delete lead' });
      await confirm.waitFor();
      // Cancel comes first: focused by Radix with JavaScript, by the autofocus attribute without
      // (page.evaluate cannot run in a page without JavaScript, so the attribute is what is checked).
      if (javaScript) await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      else expect(await confirm.getByRole('link', { name: 'Cancel' }).getAttribute('autofocus')).toBe('');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await waitForToast(page, 'Lead deleted');
      expect(new URL(page.url()).pathname).toBe('/leads');
      expect(await page.getByRole('region', { name: 'Recent Leads' }).getByRole('link', { name: `Ada ${tag}` }).count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
