// A seller's logo (decision 045): recognised by its bytes, bounded in size and
// pixels, and drawn on a PDF only when it passes.
import { describe, expect, it } from 'vitest';
import { inspectLogo } from '../../app/lib/logo-image.ts';
import { renderInvoicePdf } from '../../app/features/invoices/pdf/invoice-layout.ts';
import { renderQuotePdf } from '../../app/features/quotes/pdf/quote-layout.ts';
import { hugeHeaderPng, logoJpeg, logoPng } from '../support/logo-samples.ts';
import { SAMPLE_SELLER, sampleInvoice, sampleQuote } from '../support/quote-pdf-samples.ts';
import { pageTexts } from '../support/pdf.ts';

const images = (pdf: Uint8Array) => (new TextDecoder('latin1').decode(pdf).match(/\/Subtype \/Image/g) ?? []).length;

describe('inspectLogo', () => {
  it('takes a PNG and a JPEG by their bytes, with their size', () => {
    expect(inspectLogo(logoPng(40, 20))).toEqual({ kind: 'png', width: 40, height: 20 });
    expect(inspectLogo(logoJpeg(300, 100))).toEqual({ kind: 'jpeg', width: 300, height: 100 });
  });

  it('refuses anything else, too many pixels and too many bytes', () => {
    expect(inspectLogo(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({ error: 'The logo must be a PNG or JPEG image' });
    expect(inspectLogo(new Uint8Array())).toEqual({ error: 'Choose a PNG or JPEG file' });
    expect(inspectLogo(hugeHeaderPng())).toEqual({ error: 'The logo is too large (at most 1024 x 1024 pixels)' });
    expect(inspectLogo(logoJpeg(2000, 10))).toEqual({ error: 'The logo is too large (at most 1024 x 1024 pixels)' });
    const big = new Uint8Array(600 * 1024);
    big.set(logoPng());
    expect(inspectLogo(big)).toEqual({ error: 'The logo is too large (at most 512 KB)' });
  });
});

describe('the logo on PDFs', () => {
  it('draws a PNG or JPEG logo above the seller', async () => {
    const quote = await renderQuotePdf(sampleQuote(1, { seller: SAMPLE_SELLER, logo: { bytes: logoPng() } }));
    expect(images(quote)).toBe(1);
    expect((await pageTexts(quote))[0]).toContain('Northwind Trading GmbH');
    expect(images(await renderInvoicePdf(sampleInvoice(1, { seller: SAMPLE_SELLER, logo: { bytes: logoJpeg() } })))).toBe(1);
  });

  it('leaves out a logo that does not pass, and still renders', async () => {
    const pdf = await renderQuotePdf(sampleQuote(1, { seller: SAMPLE_SELLER, logo: { bytes: hugeHeaderPng() } }));
    expect(images(pdf)).toBe(0);
    expect((await pageTexts(pdf))[0]).toContain('Northwind Trading GmbH');
  });
});
