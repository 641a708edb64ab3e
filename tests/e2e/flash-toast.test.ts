// The one toast of a page shows whichever came last: the server's (after a
// post) or one raised in the page when JavaScript refuses a form before it is
// posted. Checked both ways round on the upload dialog, in Chromium.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_ADMIN } from '../support/accounts.ts';
import { browserForFile, newVisitor, waitForToast } from './support/browser.ts';
import { signInThroughForm } from './support/people.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

describe('the flash toast with JavaScript on', () => {
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    ({ page, context } = await newVisitor(browser(), { javaScript: true, baseURL }));
    await signInThroughForm(page, DEMO_ADMIN);
  });
  afterAll(async () => {
    await context?.close();
  });

  const toast = () => page.locator('[data-toast-type]');
  const submitWithoutFile = async () => {
    await page.evaluate(() => document.querySelector('form[enctype="multipart/form-data"]')?.setAttribute('novalidate', ''));
    await page.getByRole('dialog', { name: 'Upload Document' }).getByRole('button', { name: 'Upload Document', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Please select a file to upload' }).waitFor();
  };

  it("the page's refusal, then the server's answer, then the page's again: each replaces the last", async () => {
    await page.goto('/documents?new');
    await page.getByLabel('Title').fill(`Toast check ${crypto.randomUUID()}`);
    await submitWithoutFile();
    expect(await toast().count()).toBe(1);

    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'toast.txt', mimeType: 'text/plain', buffer: Buffer.from(`toast ${crypto.randomUUID()}`),
    });
    await page.getByRole('dialog', { name: 'Upload Document' }).getByRole('button', { name: 'Upload Document', exact: true }).click();
    await waitForToast(page, 'Document uploaded successfully!');
    expect(await toast().count()).toBe(1);

    // Without a new page load: the same toast component, the server's toast still its prop.
    await page.getByRole('main').getByRole('link', { name: 'Upload Document' }).click();
    await page.getByLabel('Title').fill('Nothing attached');
    await submitWithoutFile();
    expect(await toast().count()).toBe(1);
  }, 60_000);
});
