// A first run that guides, as a person does it in Chromium with JavaScript on
// and off: forgot password through the mail outbox, the profile's name and
// password, a module switched on after its price is confirmed, and the axe
// scan of the screens this changed.
import { describe, expect, inject, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';
import { signUpThroughForm } from './support/people.ts';
import { DEMO_NORTHWIND_ADMIN } from '../support/accounts.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');

async function resetLinkFor(email: string): Promise<URL> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const mail = (await readOutbox(backendUrl)).filter((m) => m.to === email && /Reset your OpsHub Pro password/.test(m.subject)).at(-1);
    const link = mail?.text.match(/https?:\/\/\S+\/auth\/confirm\?\S+/)?.[0];
    if (link) return new URL(link);
    if (Date.now() > deadline) throw new Error(`no reset mail for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const javaScript of [true, false]) {
  describe(`a first run with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('resets a forgotten password through the mailed link and lands signed in', async () => {
      const { page, context } = await newVisitor(browser(), { javaScript, baseURL });
      const email = await signUpThroughForm(page, { first: 'Fay', last: 'Forgetful', label: `e2e-forgot-${javaScript}` });
      await context.clearCookies();

      await page.goto('/auth');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL('**/auth/forgot-password');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      await page.getByText('If an account uses this address, a link to reset its password is on its way.').first().waitFor();

      const link = await resetLinkFor(email);
      await page.goto(`${link.pathname}${link.search}`);
      await page.waitForURL('**/auth/reset-password');
      await page.getByLabel('Password', { exact: true }).fill('fresh-password');
      await page.getByLabel('Confirm password').fill('fresh-password');
      await page.getByRole('button', { name: 'Save Password' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByText('Password updated').first().waitFor();

      await context.clearCookies();
      await page.goto('/auth');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('fresh-password');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL('**/dashboard');
      await context.close();
    });

    it('changes the own name and password on the profile, reached from the avatar menu', async () => {
      const { page, context } = await newVisitor(browser(), { javaScript, baseURL });
      const label = `e2e-profile-${javaScript}`;
      await signUpThroughForm(page, { first: 'Pat', last: 'Profile', label });
      await page.getByLabel(/account menu for Pat Profile/).click();
      await page.getByRole('link', { name: 'Profile' }).click();
      await page.waitForURL('**/profile');

      await page.getByLabel('First name').fill('Patricia');
      await page.getByRole('button', { name: 'Save Name' }).click();
      await page.getByText('Name updated successfully').first().waitFor();
      await page.getByLabel(/account menu for Patricia Profile/).waitFor({ state: 'attached' });

      await page.getByLabel('Current password').fill(`${label}-password`);
      await page.getByLabel('New password').fill('changed-password');
      await page.getByLabel('Confirm password').fill('changed-password');
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('Password changed successfully').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/profile');
      await context.close();
    });

    it('switches a paid module on only after its price is confirmed', async () => {
      const { page, context } = await newVisitor(browser(), { javaScript, baseURL });
      await signUpThroughForm(page, { first: 'Max', last: 'Modules', label: `e2e-modules-${javaScript}` });
      await page.goto('/settings');
      // Not the master account: the first screen it may use is Modules.
      await page.waitForURL('**/settings/modules');
      await page.getByRole('link', { name: 'Activate Helpdesk' }).click();
      const dialog = page.getByRole('dialog', { name: 'Activate Module' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Activate Helpdesk for $299.00/month, plus a one-time setup fee of $300.00?');
      await dialog.getByRole('button', { name: 'Activate' }).click();
      await page.getByText('Module activated successfully').first().waitFor();
      await page.getByRole('button', { name: 'Pause Helpdesk' }).waitFor();
      await context.close();
    });
  });
}

describe('accessibility of the changed screens', () => {
  it('finds no serious or critical violations', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    await page.goto('/auth');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.locator('form').getByRole('alert').waitFor();
    expect(await seriousAxeViolations(page), '/auth with its error').toEqual([]);
    await page.goto('/auth/forgot-password');
    expect(await seriousAxeViolations(page), '/auth/forgot-password').toEqual([]);

    await page.goto('/auth');
    await page.getByLabel('Email').fill(DEMO_NORTHWIND_ADMIN.email);
    await page.getByLabel('Password').fill(DEMO_NORTHWIND_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
    for (const path of ['/profile', '/settings/modules', '/settings/users']) {
      await page.goto(path);
      expect(await seriousAxeViolations(page), path).toEqual([]);
    }
    await page.goto('/settings/modules');
    // Northwind's seed leaves modules unsubscribed: each is a link to its confirmation.
    const activate = page.getByRole('link', { name: /^Activate / });
    expect(await activate.count()).toBeGreaterThan(0);
    await activate.first().click();
    await page.getByRole('dialog', { name: 'Activate Module' }).waitFor();
    expect(await seriousAxeViolations(page), 'the activation confirmation').toEqual([]);
    await context.close();
  });
});
