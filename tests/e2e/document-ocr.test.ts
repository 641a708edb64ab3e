// An image's text in Chromium (decision 032). JavaScript off: the image says it
// needs its text, the text is pasted, and the fields are extracted from it.
// JavaScript on: "Read text from the image" runs tesseract.js in the page with
// its worker, wasm core and language data from the app's own origin, fills
// the same box, and the same form extracts the fields; no request leaves the
// app's origin. axe on the page with JavaScript off and after the reading.
// A scanned PDF (decision 095): "Read text from the scan" draws its pages
// with pdf.js in the page and reads them the same way. A German image is read
// again with the German language data, from our origin too (decision 096).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { CORPUS_DIR } from '../support/extraction-corpus.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';
import { uploadDocument, waitForInvoiceNumber, type UploadFile } from './support/documents.ts';
import { signInThroughForm } from './support/people.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const INVOICE_NUMBER = 'BB-2025-0417';

/** The corpus's scanned invoice, with bytes after its end so each upload is a new file (the same file twice is refused). */
function scannedInvoice() {
  const png = readFileSync(join(CORPUS_DIR, 'scanned-invoice.png'));
  return { name: 'scanned-invoice.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.from(crypto.randomUUID())]) };
}

/** The same invoice as a scanned PDF: one page that is only the image, no text layer. */
async function scannedPdf() {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(readFileSync(join(CORPUS_DIR, 'scanned-invoice.png')));
  const page = pdf.addPage([595, 842]);
  const scale = Math.min(555 / png.width, 802 / png.height);
  page.drawImage(png, { x: 20, y: 822 - png.height * scale, width: png.width * scale, height: png.height * scale });
  pdf.setTitle(crypto.randomUUID());
  return { name: 'scanned-invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await pdf.save()) };
}

/** Uploads the image (the corpus's scanned invoice unless `file` says otherwise) and opens its page. */
const uploadImage = (page: Page, title: string, file: UploadFile = scannedInvoice()) => uploadDocument(page, title, file);

/** The page once the job has extracted the fields from the text. */
const waitForFields = (page: Page) => waitForInvoiceNumber(page, INVOICE_NUMBER);

describe('an image with JavaScript off', () => {
  it('needs its text, offers no OCR button, and extracts the fields from the pasted text', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: false, baseURL });
    try {
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadImage(page, `Scan off ${Date.now()}`);
      const main = page.getByRole('main');
      await main.getByText('Needs text').waitFor();
      expect(await main.getByText('An image has no text layer').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Read text from the image' }).count()).toBe(0);

      // Nothing typed: refused under the box by the server.
      await page.getByRole('button', { name: 'Extract fields' }).click();
      await page.getByLabel('Text of the document').waitFor();
      expect(await page.getByLabel('Text of the document').getAttribute('aria-invalid')).toBe('true');
      // axe needs script in the page: the same page with the app's own scripts refused stands in for JavaScript off.
      const axe = await newVisitor(browser(), { javaScript: true, baseURL });
      try {
        await axe.context.addCookies(await context.cookies());
        await axe.context.route('**/*.js', (route) => route.abort());
        await axe.page.goto(new URL(page.url()).pathname);
        await axe.page.getByLabel('Text of the document').waitFor();
        expect(await seriousAxeViolations(axe.page)).toEqual([]);
      } finally {
        await axe.context.close();
      }

      await page.getByLabel('Text of the document').fill(['Bluebird Print Studio', 'INVOICE', `Invoice No: ${INVOICE_NUMBER}`, 'Invoice Date: 2025-04-17', 'Total: EUR 312.50'].join('\n'));
      await page.getByRole('button', { name: 'Extract fields' }).click();
      await waitForToast(page, 'Text received: its fields are being extracted');
      await waitForFields(page);
      expect(await page.getByLabel('Total', { exact: true }).inputValue()).toBe('312.50');
      expect(await page.getByLabel('Currency').inputValue()).toBe('EUR');
      expect(errors.filter((error) => !error.includes('status of 400')).join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('an image with JavaScript on', () => {
  it('reads the text from the image in the browser with our own OCR files, and extracts the fields from it', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    try {
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadImage(page, `Scan on ${Date.now()}`);
      const read = page.getByRole('button', { name: 'Read text from the image' });
      await read.waitFor();
      // Nothing of OCR is loaded before the click.
      expect(requests.filter((url) => url.includes('/ocr/') || url.includes('read-image-text'))).toEqual([]);

      await read.click();
      const box = page.getByLabel('Text of the document');
      await expect.poll(() => box.inputValue(), { timeout: 60_000 }).toContain(INVOICE_NUMBER);
      await page.getByRole('status').filter({ hasText: 'Text read from the image: check it below' }).waitFor();
      const origin = new URL(baseURL).origin;
      expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
      const paths = requests.map((url) => new URL(url).pathname);
      expect(paths).toEqual(expect.arrayContaining(['/ocr/worker.min.js', '/ocr/lang/eng.traineddata.gz', expect.stringMatching(/^\/documents\/[0-9a-f-]{36}\/image$/)]));
      expect(paths.some((path) => /^\/ocr\/core\/tesseract-core-[a-z-]*lstm\.wasm\.js$/.test(path))).toBe(true);
      // An English page loads no other language's data (decision 096).
      expect(paths.filter((path) => path.startsWith('/ocr/lang/'))).toEqual(['/ocr/lang/eng.traineddata.gz']);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Extract fields' }).click();
      await waitForToast(page, 'Text received: its fields are being extracted');
      await waitForFields(page);
      expect(await page.getByLabel('Total', { exact: true }).inputValue()).toBe('312.50');
      expect(await page.getByLabel('Issue date').inputValue()).toBe('2025-04-17');
      expect(await page.getByText(/Found with \d+% confidence/).count()).toBeGreaterThan(0);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('says so when the text cannot be read (the language data unreachable), leaving the box to paste into', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    try {
      await context.route('**/ocr/lang/**', (route) => route.abort());
      const uncaught: string[] = [];
      page.on('pageerror', (error) => uncaught.push(error.message));
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadImage(page, `Scan unread ${Date.now()}`);
      await page.getByRole('button', { name: 'Read text from the image' }).click();
      await page.getByRole('status').filter({ hasText: 'The text could not be read from the image: paste it below.' }).waitFor({ timeout: 30_000 });
      expect(await page.getByLabel('Text of the document').inputValue()).toBe('');
      // The button is back for another try.
      expect(await page.getByRole('button', { name: 'Read text from the image' }).isEnabled()).toBe(true);
      expect(uncaught).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

/** Lines of text as Chromium draws them (a screenshot: an image with no text layer), with bytes after its end: a new file each run. */
async function screenshotOf(page: Page, name: string, lines: string[], look: { width: number; height: number; font: string; margin: number }) {
  await page.setViewportSize({ width: look.width, height: look.height });
  await page.setContent(`<body style="font: ${look.font} Arial, sans-serif; margin: ${look.margin}px; background: #fff; color: #000">${lines.map((line) => `<div>${line}</div>`).join('')}</body>`);
  const png = await page.screenshot({ fullPage: true });
  return { name, mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.from(crypto.randomUUID())]) };
}

/** A German invoice, drawn large. */
async function germanInvoice(page: Page) {
  const lines = ['Bäckerei Müller GmbH', 'Rechnung', 'Rechnungsnummer: RE-2025-0815', 'Rechnungsdatum: 15.08.2025', 'Pos. Bezeichnung Menge Einzelpreis Gesamt', '1 Brötchen für das Frühstück 40 0,50 20,00', '2 Käsekuchen groß 2 14,00 28,00', 'Zwischensumme 48,00 EUR', 'zzgl. 7 % MwSt. 3,36 EUR', 'Gesamtbetrag 51,36 EUR', 'Zahlbar innerhalb von 14 Tagen ohne Abzug.', 'Vielen Dank für Ihre Bestellung!'];
  return screenshotOf(page, 'rechnung.png', lines, { width: 900, height: 700, font: '22px/1.6', margin: 40 });
}

describe('a German image with JavaScript on', () => {
  it('reads it again with the German language data from our origin, accents and all', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    try {
      const image = await germanInvoice(page);
      const requests: string[] = [];
      context.on('request', (request) => requests.push(request.url()));
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadImage(page, `Rechnung ${Date.now()}`, image);
      await page.getByRole('button', { name: 'Read text from the image' }).click();
      const box = page.getByLabel('Text of the document');
      await expect.poll(() => box.inputValue(), { timeout: 90_000 }).toContain('RE-2025-0815');
      expect(await box.inputValue()).toContain('Käsekuchen');
      const paths = requests.map((url) => new URL(url).pathname);
      expect(paths.filter((path) => path.startsWith('/ocr/lang/')).sort()).toEqual(['/ocr/lang/deu.traineddata.gz', '/ocr/lang/eng.traineddata.gz']);
      const origin = new URL(baseURL).origin;
      expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 150_000);

  it('keeps the English reading when the German language data cannot be loaded', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    try {
      const image = await germanInvoice(page);
      let asked = 0;
      await context.route('**/ocr/lang/deu.traineddata.gz', (route) => {
        asked += 1;
        return route.abort();
      });
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadImage(page, `Rechnung offline ${Date.now()}`, image);
      await page.getByRole('button', { name: 'Read text from the image' }).click();
      await page.getByRole('status').filter({ hasText: 'Text read from the image: check it below' }).waitFor({ timeout: 90_000 });
      expect(await page.getByLabel('Text of the document').inputValue()).toContain('RE-2025-0815');
      expect(asked).toBe(1);
      expect(errors.filter((error) => !error.includes('net::ERR_FAILED'))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 150_000);
});

/** A receipt as a phone's screenshot shows it, small (200 pixels wide, 7-pixel letters): tesseract reads it as nothing at this size. */
async function tinyReceipt(page: Page) {
  const lines = ['Corner Cafe Ltd', 'Receipt No. RB-4711', 'Date 26/06/2023', 'Fries 5.50', 'Coffee 5.20', 'Total 10.70 GBP'];
  return screenshotOf(page, 'receipt.png', lines, { width: 200, height: 200, font: '7px/1.5', margin: 6 });
}

describe('a small screenshot with JavaScript on', () => {
  it('reads it again at twice its size when its first reading is poor', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    try {
      const image = await tinyReceipt(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadImage(page, `Small receipt ${Date.now()}`, image);
      await page.getByRole('button', { name: 'Read text from the image' }).click();
      const box = page.getByLabel('Text of the document');
      await expect.poll(() => box.inputValue(), { timeout: 90_000 }).toContain('10.70');
      expect(await box.inputValue()).toContain('Coffee');
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 150_000);
});

describe('a page scanned sideways with JavaScript on', () => {
  it('turns it the right way up before reading it (its first reading is poor)', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    try {
      await signInThroughForm(page, DEMO_ADMIN);
      // The corpus's invoice turned a quarter clockwise (ImageMagick), with bytes after its end: a new file each run.
      const sideways = Buffer.concat([readFileSync(join(CORPUS_DIR, '../ocr/scanned-invoice-sideways.png')), Buffer.from(crypto.randomUUID())]);
      await uploadImage(page, `Sideways ${Date.now()}`, { name: 'sideways.png', mimeType: 'image/png', buffer: sideways });
      await page.getByRole('button', { name: 'Read text from the image' }).click();
      await expect.poll(() => page.getByLabel('Text of the document').inputValue(), { timeout: 90_000 }).toContain(INVOICE_NUMBER);
      expect(await page.getByLabel('Text of the document').inputValue()).toContain('Bluebird Print Studio');
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 150_000);
});

describe('a scanned PDF with JavaScript on', () => {
  it('says it has no text layer, draws its pages and reads their text in the browser, and extracts the fields from it', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    try {
      await signInThroughForm(page, DEMO_ADMIN);
      await uploadImage(page, `Scanned PDF ${Date.now()}`, await scannedPdf());
      const main = page.getByRole('main');
      // The extraction job finds no text layer: the page says so and offers the scan's OCR.
      const deadline = Date.now() + 20_000;
      while ((await main.getByText('Needs text').count()) === 0) {
        if (Date.now() > deadline) throw new Error('extraction did not finish');
        await page.waitForTimeout(300);
        await page.reload();
      }
      expect(await main.getByText('The PDF has no text layer (a scan): read its text with Read text from the scan').count()).toBe(1);
      const read = page.getByRole('button', { name: 'Read text from the scan' });
      await read.click();
      const box = page.getByLabel('Text of the document');
      await expect.poll(() => box.inputValue(), { timeout: 90_000 }).toContain(INVOICE_NUMBER);
      await page.getByRole('status').filter({ hasText: 'Text read from the scan: check it below' }).waitFor();
      const origin = new URL(baseURL).origin;
      // Over the network, only the app's origin (the PDF frame beside the fields loads Chromium's own viewer, chrome://).
      expect(requests.filter((url) => /^https?:/.test(url) && !url.startsWith(origin))).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Extract fields' }).click();
      await waitForToast(page, 'Text received: its fields are being extracted');
      await waitForFields(page);
      expect(await page.getByLabel('Total', { exact: true }).inputValue()).toBe('312.50');
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  }, 150_000);
});
