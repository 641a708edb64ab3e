import { describe, expect, inject, it } from 'vitest';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

for (const javaScript of [true, false]) {
  describe(`public pages with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('renders the landing page, and View Pricing leads to /pricing', async () => {
      const { page, errors, context } = await newVisitor(browser(), { javaScript, baseURL });
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('OpsHub Pro');
      // One 'Get Started' per module card, each named for its module.
      expect(await page.getByRole('link', { name: /^Get Started with / }).count()).toBe(6);
      await page.getByRole('link', { name: 'View Pricing' }).click();
      await page.getByRole('heading', { level: 1, name: 'Simple, Transparent Pricing' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/pricing');
      expect(errors).toEqual([]);
      await context.close();
    });

    it('takes Sign In to /auth', async () => {
      const { page, errors, context } = await newVisitor(browser(), { javaScript, baseURL });
      await page.goto('/');
      await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
      await page.waitForURL('**/auth');
      expect(new URL(page.url()).pathname).toBe('/auth');
      expect(errors).toEqual([]);
      await context.close();
    });

    it('has no serious or critical accessibility violations on / and /pricing', async () => {
      // axe runs as a script in the page, so "JavaScript off" is emulated by
      // refusing the app's scripts: the page stays as the server rendered it.
      const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
      if (!javaScript) await context.route('**/*.js', (route) => route.abort());
      for (const path of ['/', '/pricing']) {
        await page.goto(path);
        expect(await seriousAxeViolations(page), path).toEqual([]);
      }
      await context.close();
    });
  });
}

describe('the 404 page', () => {
  it('says so and links home', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    const response = await page.goto('/definitely-missing');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' }).isVisible()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});
