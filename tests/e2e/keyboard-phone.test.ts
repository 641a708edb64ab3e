// Keyboard, phone and screen-reader behaviour in Chromium (JavaScript on):
// the mobile navigation is a modal (focus in, Tab kept in, Escape, focus
// back), the avatar menu closes on Escape, an outside click and a
// navigation, dialogs give focus back to what opened them, nothing scrolls
// sideways at 390 px and a list starts within the first screen; the audit
// log's table; the invitation's and upload's toasts with JavaScript on; and
// axe scans of the screens these touch.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_ADMIN, uniqueEmail } from '../support/accounts.ts';
import { inviteAndReadLink, signInThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const PHONE = { width: 390, height: 844 };

/** What has focus: its accessible label or text, and whether it sits inside the element matching `within`. */
function focused(page: Page, within?: string) {
  return page.evaluate((selector) => {
    const active = document.activeElement as HTMLElement | null;
    return {
      label: active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '',
      inside: selector ? Boolean(active?.closest(selector)) : false,
    };
  }, within);
}

async function hydrated(page: Page) {
  await page.locator('[data-hydrated]').waitFor({ state: 'attached' });
}

async function signedInOnPhone() {
  const visitor = await newVisitor(browser(), { javaScript: true, baseURL });
  await signInThroughForm(visitor.page, DEMO_ADMIN);
  await visitor.page.setViewportSize(PHONE);
  return visitor;
}

describe('the mobile navigation at 390 px', () => {
  it('takes focus in, keeps Tab inside, closes on Escape and gives focus back to the menu button', async () => {
    const { page, context, errors } = await signedInOnPhone();
    await page.goto('/leads');
    await hydrated(page);
    await page.getByRole('link', { name: 'Open navigation' }).focus();
    await page.keyboard.press('Enter');
    const navigation = page.getByRole('dialog', { name: 'Navigation' });
    await navigation.waitFor();
    // Rendered in the browser, not hydrated: the icons' paths (one string, app/components/icon.tsx) are SVG, not HTML.
    const iconParts = await navigation.locator('svg.lucide > *').evaluateAll((parts) => parts.map((part) => part.namespaceURI));
    expect(iconParts.length).toBeGreaterThan(0);
    expect(new Set(iconParts)).toEqual(new Set(['http://www.w3.org/2000/svg']));
    await expect.poll(async () => (await focused(page, '[role="dialog"]')).inside).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      expect((await focused(page, '[role="dialog"]')).inside).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page, '[role="dialog"]')).inside).toBe(true);
    await page.keyboard.press('Escape');
    await navigation.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).label).toBe('Open navigation');
    // The page's own query survives opening and closing the menu.
    expect(new URL(page.url()).pathname).toBe('/leads');

    // A link in it navigates and closes it.
    await page.getByRole('link', { name: 'Open navigation' }).click();
    await navigation.getByRole('link', { name: 'Clients' }).click();
    await page.waitForURL('**/clients');
    await navigation.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the avatar menu', () => {
  it('closes on Escape (focus back on its button), on an outside click and on a navigation', async () => {
    const visitor = await newVisitor(browser(), { javaScript: true, baseURL });
    const { page, context, errors } = visitor;
    await signInThroughForm(page, DEMO_ADMIN);
    await hydrated(page);
    const button = page.getByLabel(/account menu for/);
    const profile = page.getByRole('link', { name: 'Profile' });

    await button.focus();
    await page.keyboard.press('Enter');
    await profile.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'hidden' });
    expect((await focused(page)).label).toMatch(/account menu for/);

    await button.click();
    await profile.waitFor();
    await page.getByRole('heading', { level: 1 }).click();
    await profile.waitFor({ state: 'hidden' });

    await button.click();
    await profile.click();
    await page.waitForURL('**/profile');
    await profile.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('dialogs give focus back to what opened them', () => {
  for (const [path, button, title] of [
    ['/leads', 'New Lead', 'New Lead'],
    ['/clients', 'New Client', 'New Client'],
    ['/quotes', 'New Quote', 'Create New Quote'],
    ['/settings/integrations', 'New Integration', 'New Integration'],
  ] as const) {
    it(`${path}: Escape and the Close link return focus to '${button}'`, async () => {
      const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
      await signInThroughForm(page, DEMO_ADMIN);
      await page.goto(path);
      await hydrated(page);
      const opener = page.getByRole('main').getByRole('link', { name: button, exact: true });
      const dialog = page.getByRole('dialog', { name: title });

      await opener.focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await expect.poll(async () => (await focused(page, '[role="dialog"]')).inside).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page)).label).toBe(button);

      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await dialog.getByRole('link', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page)).label).toBe(button);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('390 px wide', () => {
  for (const path of ['/analytics', '/leads', '/clients', '/quotes', '/settings/audit-logs']) {
    it(`${path} never scrolls sideways${path === '/analytics' ? '' : ', and its list starts within the first screen'}`, async () => {
      const { page, context } = await signedInOnPhone();
      await page.goto(path);
      await hydrated(page);
      const widths = await page.evaluate(() => {
        const root = document.scrollingElement!;
        return { scroll: root.scrollWidth, client: root.clientWidth };
      });
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      if (path === '/leads' || path === '/clients' || path === '/quotes') {
        const region = page.getByRole('region', { name: /Recent Leads|Client Directory|Recent Quotes/ });
        const box = await region.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.y).toBeLessThan(PHONE.height);
      }
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    });
  }

  it('the settings tab strip shows the current tab, scrolled into view and marked current', async () => {
    const { page, context } = await signedInOnPhone();
    await page.goto('/settings/audit-logs');
    await hydrated(page);
    const current = page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit Logs' });
    expect(await current.getAttribute('aria-current')).toBe('page');
    await expect.poll(() => current.evaluate((link) => {
      const box = link.getBoundingClientRect();
      const strip = link.closest('ul')!.getBoundingClientRect();
      return box.left >= strip.left - 1 && box.right <= strip.right + 1;
    })).toBe(true);
    await context.close();
  });
});

describe('the audit log', () => {
  it('is a table naming each record, with changes before → after, paging beyond the latest entries', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    await signInThroughForm(page, DEMO_ADMIN);
    await page.goto('/settings/audit-logs');
    const table = page.getByRole('table', { name: 'Audit entries' });
    await table.waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['When', 'Action', 'Record', 'By', 'Changes']);
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.count()).toBeLessThanOrEqual(50);
    // Each record by kind and name ('quote Q-…', 'lead …'), never a bare id.
    const records = await rows.locator('td:nth-child(3)').allTextContents();
    expect(records.every((record) => /^[a-z ]+ \S/.test(record))).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    const older = page.getByRole('navigation', { name: 'Audit entries pages' }).getByRole('link', { name: 'Older' });
    if (await older.count()) {
      await older.click();
      await page.waitForURL('**page=2');
      await page.getByText(/^Showing 51–/).waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('toasts the spec lists, with JavaScript on', () => {
  it("the invitation form says 'Password Mismatch' first, then 'Weak Password'", async () => {
    const link = await inviteAndReadLink(inject('backendUrl'), inject('anonKey'), uniqueEmail('e2e-toast'), 'member');
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    // The invitation page runs without the framework (decision 028): the toasts are the server's.
    await page.goto(new URL(link).pathname);
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm password').fill('abd');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('alert').filter({ hasText: 'Password Mismatch' }).waitFor();
    await page.getByText('Password must be at least 6 characters long').first().waitFor();
    await page.getByLabel('Confirm password').fill('abc');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('alert').filter({ hasText: 'Weak Password' }).waitFor();
    expect(page.url()).toContain('/invite/');
    await context.close();
  });

  it("an upload without a file says 'Please select a file to upload'", async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    await signInThroughForm(page, DEMO_ADMIN);
    await page.goto('/documents?new');
    await hydrated(page);
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('No file here');
    await dialog.getByRole('button', { name: 'Upload Document' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please select a file to upload' }).waitFor();
    await context.close();
  });
});
