import { describe, expect, inject, it } from 'vitest';
import { confirmationLinkFor } from '../support/confirmation-mail.ts';
import { inviteAndReadLink, signInThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';
import { DEMO_ADMIN, uniqueEmail } from '../support/accounts.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');
const anonKey = inject('anonKey');

for (const javaScript of [true, false]) {
  describe(`accounts with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it("signs up with a company name, reaches its workspace's dashboard, signs out and signs back in", async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      const email = uniqueEmail('e2e-signup');
      await page.goto('/auth');
      await page.getByRole('link', { name: 'Sign Up' }).click();
      await page.getByLabel('First name').waitFor();
      await page.getByLabel('First name').fill('Eve');
      await page.getByLabel('Last name').fill('Tester');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('eve-password');
      // The company name is required: refused under its field, what was typed kept.
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByText('Company name is required').waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      // The page runs without the framework either way (docs/decisions/028): the
      // refusal is a 400 page, which the browser logs: expected here, not an error.
      errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('status of 400')));
      await page.getByLabel('Company name').fill(`Eve Works ${javaScript ? 'JS' : 'HTML'}`);
      // The password is never sent back.
      await page.getByLabel('Password').fill('eve-password');
      await page.getByRole('button', { name: 'Create Account' }).click();
      // No session until the address is proven: the page says where to look.
      await page.getByRole('status').filter({ hasText: 'Please check your email for a confirmation link.' }).first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/auth');
      const link = await confirmationLinkFor(backendUrl, email);
      await page.goto(`${link.pathname}${link.search}`);
      await page.waitForURL('**/dashboard');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome, Eve');
      expect(await page.getByRole('banner').getByText(`Eve Works ${javaScript ? 'JS' : 'HTML'}`).count()).toBe(1);

      await page.getByLabel('Account menu for Eve Tester').click();
      await page.getByRole('button', { name: 'Sign Out' }).click();
      await page.waitForURL('**/auth');

      await signInThroughForm(page, { email, password: 'eve-password' });
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome back, Eve');
      expect(errors).toEqual([]);
      await context.close();
    });

    it('shows Sign in failed in a toast and beside the form, focused, for a wrong password', async () => {
      const { page, context } = await newVisitor(browser(), { javaScript, baseURL });
      await page.goto('/auth');
      await page.getByLabel('Email').fill(DEMO_ADMIN.email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      // The toast, and the same reason above the form, where the focus goes.
      const alerts = page.getByRole('alert').filter({ hasText: 'Sign in failed' });
      await alerts.nth(1).waitFor();
      const besideForm = page.locator('form').getByRole('alert');
      expect(await besideForm.textContent()).toContain('Invalid login credentials');
      if (javaScript) {
        await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'alert');
        expect(await besideForm.evaluate((element) => element === document.activeElement)).toBe(true);
      } else {
        // Without JavaScript the focus is the browser's autofocus, asked for by
        // the alert alone. Headless Chromium applies it, but twice in full e2e
        // runs (never with this file alone) it did not within 30 s, focus
        // staying on the page: so the page's part is what is held here, the
        // alert as the one element asking, and nothing else taking the focus.
        const focused = await page
          .waitForFunction(() => document.activeElement?.getAttribute('role') === 'alert', undefined, { timeout: 10_000 })
          .then(() => true, () => false);
        expect(await page.locator('[autofocus]').count()).toBe(1);
        expect(await besideForm.getAttribute('autofocus')).not.toBeNull();
        // Unfocused, no field of the form took the focus (it may rest on the
        // body, the root element in a window Chromium never focused, or, as
        // once in a loaded CI run, a control outside the form): the person
        // reads the alert and the fields keep what they typed. The element is
        // named in a failure.
        if (!focused) {
          const taken = await page.evaluate(() => {
            const active = document.activeElement;
            return active?.closest('form')?.querySelector('[role="alert"]') && active.matches('input, select, textarea') ? active.outerHTML.slice(0, 120) : null;
          });
          expect(taken).toBeNull();
        }
        else expect(await besideForm.evaluate((element) => element === document.activeElement)).toBe(true);
      }
      expect(await page.getByLabel('Email').inputValue()).toBe(DEMO_ADMIN.email);
      await context.close();
    });

    it('accepts an invitation from the mail outbox, lands signed in and shows the role its sidebar', async () => {
      const email = uniqueEmail('e2e-invitee');
      const link = await inviteAndReadLink(backendUrl, anonKey, email, 'client');
      const { page, context } = await newVisitor(browser(), { javaScript, baseURL });
      await page.goto(new URL(link).pathname);
      await page.getByText(email).waitFor();
      await page.getByLabel('First name').fill('Cli');
      await page.getByLabel('Last name').fill('Ent');
      await page.getByLabel('Password', { exact: true }).fill('client-pass');
      await page.getByLabel('Confirm password').fill('client-pass');
      await page.getByRole('button', { name: 'Create Account' }).click();
      // Signed in at once: a client lands on its own page, the only one of its sidebar.
      await page.waitForURL('**/portal');
      await page.getByText('Account Created').first().waitFor();
      const nav = page.getByRole('navigation', { name: 'Application' }).first();
      await nav.getByRole('link', { name: 'Quotes' }).waitFor();
      await nav.getByRole('link', { name: 'Invoices' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Leads' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
      await page.getByText('No quotes have been sent to you yet').waitFor();
      await context.close();
    });
  });
}

describe('the sign-in page with JavaScript, served without the framework', () => {
  it('loads no script file, focuses the refused field, shows the pending label while posting and dismisses the toast', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto('/auth');
    // Validated by the server; the inline script puts the focus on the first refused field.
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Email is required').first().waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'email');

    // The post is held until the pending state has been seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/auth', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByLabel('Email').fill(DEMO_ADMIN.email);
    await page.getByLabel('Password').fill('not-the-password');
    // Clicked and read from the page (Playwright's own click and locators wait for the held
    // navigation); the submit handler has run by the time click() returns.
    const pending = await page.evaluate(() => {
      const button = document.querySelector('form button[type=submit]') as HTMLButtonElement;
      button.click();
      return { label: button.textContent, disabled: button.getAttribute('aria-disabled') };
    });
    expect(pending).toEqual({ label: 'Signing In...', disabled: 'true' });
    release();

    const toast = page.locator('[data-toast-type="error"]');
    await toast.waitFor();
    // Held still, so its fading out by CSS cannot race the click.
    await page.addStyleTag({ content: '.toast-auto-close { animation: none !important; }' });
    await toast.getByRole('button', { name: 'Dismiss notification' }).click();
    await toast.waitFor({ state: 'detached' });
    expect(scripts).toEqual([]);
    await context.close();
  });
});

describe('the shell with JavaScript', () => {
  it('toggles the sidebar with Ctrl+B and remembers it', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    await signInThroughForm(page, DEMO_ADMIN);
    const sidebar = page.locator('aside[data-state]');
    expect(await sidebar.getAttribute('data-state')).toBe('expanded');
    // A key pressed before React has hydrated the page has no listener yet.
    const hydrated = page.locator('[data-hydrated]');
    await hydrated.waitFor();
    await page.keyboard.press('Control+b');
    await page.waitForFunction(() => document.querySelector('aside')?.getAttribute('data-state') === 'collapsed');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'sidebar:state')?.value).toBe('false');
    await page.reload();
    expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
    await hydrated.waitFor();
    await page.keyboard.press('Control+b');
    await page.waitForFunction(() => document.querySelector('aside')?.getAttribute('data-state') === 'expanded');
    await context.close();
  });

  it('opens the sidebar as a slide-over on a phone', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    await page.setViewportSize({ width: 390, height: 800 });
    await signInThroughForm(page, DEMO_ADMIN);
    expect(await page.locator('aside[data-state]').isVisible()).toBe(false);
    await page.getByRole('link', { name: 'Open navigation' }).click();
    const sheet = page.getByRole('dialog', { name: 'Navigation' });
    await sheet.waitFor();
    await sheet.getByRole('link', { name: 'Quotes' }).click();
    await page.waitForURL('**/quotes');
    await sheet.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('accessibility', () => {
  it('finds no serious or critical violations on /auth, an invitation and the shell', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    await page.goto('/auth');
    expect(await seriousAxeViolations(page), '/auth').toEqual([]);
    await page.goto('/auth?tab=signup');
    expect(await seriousAxeViolations(page), '/auth?tab=signup').toEqual([]);
    const link = await inviteAndReadLink(backendUrl, anonKey, uniqueEmail('e2e-axe'), 'auditor');
    await page.goto(new URL(link).pathname);
    expect(await seriousAxeViolations(page), '/invite').toEqual([]);
    await signInThroughForm(page, DEMO_ADMIN);
    expect(await seriousAxeViolations(page), '/dashboard').toEqual([]);
    await context.close();
  });
});
