// /analytics in Chromium with JavaScript on and off (issue 40): the period
// changes through the URL by its GET form, an export downloads the file and
// leaves the page where it was, and axe finds nothing serious.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

for (const javaScript of [true, false]) {
  describe(`/analytics with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    let page: Page;
    let context: BrowserContext;
    let errors: string[];

    beforeAll(async () => {
      ({ page, context, errors } = await newVisitor(browser(), { javaScript, baseURL }));
      await signInThroughForm(page, DEMO_ADMIN);
    });
    afterAll(async () => {
      await context?.close();
    });

    it('changes the period by a preset and by custom dates, kept in the URL', async () => {
      await page.goto('/analytics');
      await page.getByLabel('Period', { exact: true }).selectOption('last_7_days');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/range=last_7_days/);
      expect(await page.getByLabel('Period', { exact: true }).inputValue()).toBe('last_7_days');

      await page.getByLabel('Period', { exact: true }).selectOption('custom');
      await page.getByLabel('From').fill('2026-01-01');
      await page.getByLabel('To', { exact: true }).fill('2026-01-31');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/range=custom&from=2026-01-01&to=2026-01-31/);
      await page.locator('[data-range]').filter({ hasText: 'Jan 1, 2026 – Jan 31, 2026' }).waitFor({ timeout: 10_000 });
      expect(errors).toEqual([]);
    });

    it('exports a CSV: the browser downloads it and the page stays', async () => {
      await page.goto('/analytics?range=last_30_days');
      await page.getByRole('main').getByRole('link', { name: 'Export Report' }).click();
      const dialog = page.getByRole('dialog', { name: 'Export Report' });
      await dialog.waitFor();
      await page.getByLabel('Report type').selectOption('leads');
      await page.getByLabel('Format').selectOption('csv');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Export Report', exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^leads-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
      const stream = await download.createReadStream();
      let text = '';
      for await (const chunk of stream) text += chunk.toString();
      expect(text.split('\r\n')[0]).toBe('Leads Report');
      expect(text).toContain('Name,Company,Email,Source,Status,Created');
      expect(new URL(page.url()).pathname).toBe('/analytics');
      expect(errors).toEqual([]);
    });

    it('has no serious or critical accessibility violations, with its dialog open too', async () => {
      // axe runs as a script in the page, so "JavaScript off" is emulated by
      // refusing the app's scripts: the page stays as the server rendered it.
      const axe = await newVisitor(browser(), { javaScript: true, baseURL });
      await signInThroughForm(axe.page, DEMO_ADMIN);
      if (!javaScript) await axe.context.route('**/*.js', (route) => route.abort());
      await axe.page.goto('/analytics');
      expect(await seriousAxeViolations(axe.page)).toEqual([]);
      await axe.page.goto('/analytics?export');
      await axe.page.getByRole('dialog').waitFor();
      expect(await seriousAxeViolations(axe.page)).toEqual([]);
      await axe.context.close();
    }, 120_000);
  });
}
