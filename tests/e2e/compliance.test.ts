// Compliance in Chromium (issue 37), JavaScript on and off: a new account
// creates a requirement from the New Assessment dialog, finds it in the month
// calendar moved by its links (no script needed), records a review with its
// evidence file on its page, then adds a second version of that evidence.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

describe('compliance', () => {
  for (const javaScript of [true, false]) {
    it(`creates a requirement, finds it in the calendar, records a review with evidence (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const tag = crypto.randomUUID().slice(0, 8);
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(20_000);
      await signUpThroughForm(page, { first: 'Cora', last: 'Comply', label: `e2e-compliance-${javaScript ? 'js' : 'nojs'}` });
      const now = new Date();
      const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15)).toISOString().slice(0, 10);

      await page.goto('/compliance?new');
      await page.getByRole('dialog').waitFor();
      await page.getByLabel('Title').fill(`Access review ${tag}`);
      await page.getByLabel('Responsible team').fill('IT Security');
      await page.getByLabel('Next review date').fill(due);
      await page.getByLabel('Frequency').selectOption('quarterly');
      await page.getByLabel('Description', { exact: true }).fill('Review who has access');
      await page.getByRole('button', { name: 'Create Assessment' }).click();
      await waitForToast(page, 'Compliance assessment created successfully!');
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      // The calendar: this month does not show it, the next month (a plain link) does.
      await page.goto('/compliance');
      await page.getByRole('link', { name: 'Next month' }).click();
      await page.waitForURL(/month=/);
      const calendar = page.getByRole('table', { name: /Reviews due/ });
      await calendar.getByRole('link', { name: `Access review ${tag}` }).click();
      await page.getByRole('heading', { level: 1, name: `Access review ${tag}` }).waitFor();

      // The review with its evidence, in one multipart form (locked once saved).
      const dir = mkdtempSync(join(tmpdir(), 'evidence-'));
      const file = join(dir, 'access-list.txt');
      writeFileSync(file, `alice, bob ${tag}\n`);
      await page.getByLabel('Notes').fill(`All accounts checked ${tag}`);
      await page.getByLabel(/^Evidence file/).setInputFiles(file);
      await page.getByLabel('Title of the evidence').fill('Access list');
      await page.getByRole('button', { name: 'Record Review' }).click();
      await waitForToast(page, 'Review recorded with its evidence (version 1)');
      await page.getByText(`All accounts checked ${tag}`).waitFor();
      await page.getByRole('list', { name: 'Evidence' }).getByText('access-list.txt').waitFor();

      // A new version of the same evidence beside the first.
      writeFileSync(file, `alice, bob, carol ${tag}\n`);
      await page.getByLabel('Evidence title').fill('Access list');
      await page.getByLabel(/^File/).setInputFiles(file);
      await page.getByRole('button', { name: 'Add Evidence' }).click();
      await waitForToast(page, 'Evidence added (version 2)');
      await page.getByRole('list', { name: 'Evidence' }).getByText('v2').waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);
  }
});
