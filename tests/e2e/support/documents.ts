// A document uploaded through the Documents page's dialog and its page
// opened, and the wait for its extraction (the jobs runner works after the
// upload's response: the fields appear a moment later).
import type { Page } from 'playwright-core';
import { waitForToast } from './browser.ts';

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Uploads `file` as an invoice titled `title` (the dialog opened by its address, or `viaLink` from the list) and opens its page. */
export async function uploadDocument(page: Page, title: string, file: UploadFile, options: { viaLink?: boolean } = {}): Promise<void> {
  if (options.viaLink) {
    await page.goto('/documents');
    await page.getByRole('main').getByRole('link', { name: 'Upload Document' }).click();
  } else await page.goto('/documents?new');
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  await dialog.waitFor();
  await page.getByLabel('File', { exact: true }).setInputFiles(file);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Document type').selectOption('invoice');
  await dialog.getByRole('button', { name: 'Upload Document', exact: true }).click();
  await waitForToast(page, 'Document uploaded successfully!');
  await page.getByRole('link', { name: title }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/** Reloads the document's page until `done` holds (by default: its fields are there), for at most `ms`. */
export async function waitForExtraction(page: Page, done: () => Promise<boolean> = async () => (await page.getByLabel('Invoice number').count()) > 0, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('extraction did not finish');
    await page.waitForTimeout(300);
    await page.reload();
  }
}

/** Waits until the page shows the invoice number `invoiceNumber` extracted. */
export async function waitForInvoiceNumber(page: Page, invoiceNumber: string, ms = 20_000): Promise<void> {
  const field = page.getByLabel('Invoice number');
  await waitForExtraction(page, async () => (await field.count()) > 0 && (await field.inputValue()) === invoiceNumber, ms);
}
