// "Read the supplier from the logo" in Chromium (decision 102). A PDF whose
// text layer names no supplier (the sender's name is only in its logo image)
// is extracted by the job without one; with JavaScript on, the review form
// offers to read the logo: pdf.js draws the first page in the page,
// tesseract.js reads it from our own origin, the words the text layer draws
// are left out, and the logo's name fills Supplier for the person to check
// and save. With JavaScript off the button is not there: Supplier is typed.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_ADMIN } from '../support/accounts.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';
import { uploadDocument, waitForInvoiceNumber } from './support/documents.ts';
import { signInThroughForm } from './support/people.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const BUTTON = 'Read the supplier from the logo';

/** A logo as Chromium draws it: a coloured square and the name beside it, large, on white (a PNG). */
async function logoImage(page: Page): Promise<Buffer> {
  await page.setViewportSize({ width: 520, height: 120 });
  await page.setContent(
    `<body style="margin: 0; background: #fff; font: bold 44px Arial, sans-serif">
      <div style="display: flex; align-items: center; gap: 20px; padding: 20px">
        <div style="width: 70px; height: 70px; background: #e5005b; transform: rotate(12deg)"></div>
        <span style="color: #0a7cc2">Nordlicht</span><span style="color: #f39200">Design</span>
      </div>
    </body>`,
  );
  return page.screenshot();
}

/** An invoice whose text layer names its customer and not its sender: the sender is the logo at the top left. */
async function invoiceWithLogo(logo: Buffer | null, invoiceNumber: string) {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  if (logo) page.drawImage(await pdf.embedPng(logo), { x: 40, y: 842 - 40 - 60, width: 260, height: 60 });
  const lines: [string, number, number][] = [
    ['INVOICE', 380, 780],
    [`Invoice No: ${invoiceNumber}`, 380, 764],
    ['Invoice Date: 2025-06-02', 380, 748],
    ['Bill to:', 40, 680],
    ['Harbor Supplies Ltd', 40, 664],
    ['12 Quay Street, Dublin', 40, 648],
    ['Description', 40, 600],
    ['Qty', 360, 600],
    ['Amount', 480, 600],
    ['Brand workshop', 40, 584],
    ['1', 360, 584],
    ['480.00', 480, 584],
    ['Total: EUR 480.00', 400, 550],
  ];
  for (const [text, x, y] of lines) page.drawText(text, { x, y, size: 11, font });
  pdf.setTitle(crypto.randomUUID());
  return { name: 'invoice-with-logo.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await pdf.save()) };
}

describe('a PDF whose sender is only in its logo', () => {
  it('with JavaScript on, reads the name from the logo into Supplier, for the person to check and save', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    try {
      const invoiceNumber = `NL-${Date.now()}`;
      const file = await invoiceWithLogo(await logoImage(page), invoiceNumber);
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadDocument(page, `Logo ${invoiceNumber}`, file);
      await waitForInvoiceNumber(page, invoiceNumber);
      const supplier = page.getByLabel('Supplier', { exact: true });
      expect(await supplier.inputValue()).toBe('');
      expect(await page.getByLabel('Customer', { exact: true }).inputValue()).toBe('Harbor Supplies Ltd');

      await page.getByRole('button', { name: BUTTON }).click();
      await expect.poll(() => supplier.inputValue(), { timeout: 60_000 }).toMatch(/^Nordlicht ?Design$/i);
      await page.getByRole('status').filter({ hasText: 'Supplier read from the logo: check it, then save the fields.' }).waitFor();
      // Focus is on the field to check.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('supplier_name');
      // Nothing left the app's origin: the file, pdf.js and the OCR files are all ours (Chromium's own PDF viewer, in the
      // page's frame, loads its chrome:// and chrome-extension:// parts).
      const origin = new URL(baseURL).origin;
      expect(requests.filter((url) => /^(?:https?|wss?):/.test(url) && !url.startsWith(origin))).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // The person saves it: it is the document's supplier, confirmed, and the button is gone.
      await page.getByRole('button', { name: 'Save fields' }).click();
      await waitForToast(page, 'Fields saved');
      await expect.poll(() => page.getByLabel('Supplier', { exact: true }).inputValue()).toMatch(/^Nordlicht ?Design$/i);
      expect(await page.getByRole('button', { name: BUTTON }).count()).toBe(0);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('leaves a supplier the person typed meanwhile as it is, and says what the logo reads', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    try {
      const invoiceNumber = `NL-${Date.now()}`;
      const file = await invoiceWithLogo(await logoImage(page), invoiceNumber);
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadDocument(page, `Logo typed ${invoiceNumber}`, file);
      await waitForInvoiceNumber(page, invoiceNumber);
      await page.getByLabel('Supplier', { exact: true }).fill('Nordlicht GmbH');
      await page.getByRole('button', { name: BUTTON }).click();
      await page.getByRole('status').filter({ hasText: /^The logo reads “Nordlicht ?Design”: Supplier was left as you typed it\.$/i }).waitFor({ timeout: 60_000 });
      expect(await page.getByLabel('Supplier', { exact: true }).inputValue()).toBe('Nordlicht GmbH');
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('says so when the page has no logo to read, and Supplier stays empty to type', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    try {
      const invoiceNumber = `NL-${Date.now()}`;
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadDocument(page, `No logo ${invoiceNumber}`, await invoiceWithLogo(null, invoiceNumber));
      await waitForInvoiceNumber(page, invoiceNumber);
      await page.getByRole('button', { name: BUTTON }).click();
      await page.getByRole('status').filter({ hasText: 'No name was found in the logo: type the supplier.' }).waitFor({ timeout: 60_000 });
      expect(await page.getByLabel('Supplier', { exact: true }).inputValue()).toBe('');
      expect(await page.getByRole('button', { name: BUTTON }).isEnabled()).toBe(true);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('with JavaScript off, offers no button: Supplier is typed', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: false, baseURL });
    try {
      const invoiceNumber = `NL-${Date.now()}`;
      const drawing = await newVisitor(browser(), { javaScript: true, baseURL });
      const logo = await logoImage(drawing.page).finally(() => drawing.context.close());
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadDocument(page, `Logo off ${invoiceNumber}`, await invoiceWithLogo(logo, invoiceNumber));
      await waitForInvoiceNumber(page, invoiceNumber);
      expect(await page.getByLabel('Supplier', { exact: true }).inputValue()).toBe('');
      expect(await page.getByRole('button', { name: BUTTON }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
