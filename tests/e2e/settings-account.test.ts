// Account and website settings in Chromium, JavaScript on and off: a trial
// account sees its trial end and saves its details; the master admin saves the
// website settings and the landing page shows them.
import { describe, expect, inject, it } from 'vitest';
import { signInThroughForm, signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, waitForToast } from './support/browser.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';
import { logoPng } from '../support/logo-samples.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

for (const javaScript of [true, false]) {
  describe(`account and website settings with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('a new (trial) account sees its trial end and an upgrade prompt, and saves its details', async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      await signUpThroughForm(page, { first: 'Tia', last: 'Trial', label: 'e2e-account' });

      await page.goto('/settings/account');
      await page.getByText(/Your free trial ends on [A-Z][a-z]{2} \d{1,2}, \d{4}/).waitFor();
      expect(await page.getByRole('main').getByRole('link', { name: 'Upgrade Now' }).getAttribute('href')).toBe('/settings/modules');

      await page.getByLabel('Account name').fill('');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Account name is required').waitFor();

      await page.getByLabel('Account name').fill('Trial Traders');
      await page.getByLabel('Billing email').fill('billing@trial.test');
      await page.getByLabel('Default currency').selectOption('AUD');
      await page.getByLabel('Timezone').selectOption({ label: 'Denver' });
      await page.getByLabel('Country').selectOption('AU');
      // The seller details: a mistyped IBAN is refused (in the browser with JavaScript, by the server without), the rest kept.
      await page.getByLabel('Address line 1').fill('1 George Street');
      await page.getByLabel('City').fill('Sydney');
      await page.getByLabel('Tax ID').fill('ABN 51 824 753 556');
      await page.getByLabel('IBAN').fill('GB82 WEST 1234 5698 7654 33');
      await page.getByLabel('Payment terms').fill('Net 14\nThank you');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Enter a valid IBAN').waitFor();
      expect(await page.getByLabel('City').inputValue()).toBe('Sydney');
      await page.getByLabel('IBAN').fill('GB82 WEST 1234 5698 7654 32');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await waitForToast(page, 'Account settings updated successfully');
      expect(await page.getByLabel('IBAN').inputValue()).toBe('GB82 WEST 1234 5698 7654 32');
      expect(await page.getByLabel('Country').inputValue()).toBe('AU');
      expect(await page.getByLabel('Payment terms').inputValue()).toBe('Net 14\nThank you');

      // The logo: a file that is not an image is refused under its field; a PNG is shown once saved.
      await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await page.getByText('The logo must be a PNG or JPEG image').first().waitFor();
      await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(logoPng()) });
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await waitForToast(page, 'Logo updated');
      await page.getByRole('img', { name: 'Your current logo' }).waitFor();
      expect(await page.getByLabel('Account name').inputValue()).toBe('Trial Traders');
      expect(await page.getByLabel('Timezone').inputValue()).toBe('America/Denver');
      expect(await page.getByLabel('Default currency').inputValue()).toBe('AUD');
      expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
      await context.close();
    });

    it('the master admin saves the website settings and the landing page shows them', async () => {
      const { page, context } = await newVisitor(browser(), { javaScript, baseURL });
      await signInThroughForm(page, DEMO_ADMIN);
      await page.goto('/settings/website');
      const description = page.getByLabel('Description');
      const before = await description.inputValue();
      const fresh = `Run your operations in one place (${javaScript ? 'js' : 'no-js'})`;
      try {
        await description.fill(fresh);
        await page.getByLabel('Timezone').selectOption('Asia/Dubai');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await waitForToast(page, 'Website settings updated successfully');

        const visitor = await newVisitor(browser(), { javaScript, baseURL });
        await visitor.page.goto('/');
        await visitor.page.getByText(fresh).waitFor();
        await visitor.context.close();
      } finally {
        await page.goto('/settings/website');
        await page.getByLabel('Description').fill(before);
        await page.getByLabel('Timezone').selectOption('UTC');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await waitForToast(page, 'Website settings updated successfully');
        await context.close();
      }
    });
  });
}
