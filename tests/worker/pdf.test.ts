// The PDF renderer inside workerd, where it runs in production: pdf-lib
// renders with the standard fonts (no Wasm, no eval), unpdf reads the text
// back, WebCrypto hashes, and the bytes are the ones Node renders for the
// same input (the unit tests pin the same SHA-256), so a signed quote's file
// does not depend on where it was made.
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { quoteContentHash } from '../../app/lib/pdf/index.ts';
import { renderInvoicePdf } from '../../app/features/invoices/pdf/invoice-layout.ts';
import { renderQuotePdf } from '../../app/features/quotes/pdf/quote-layout.ts';
import { SIGNED_SAMPLE_PDF_SHA256, sampleInvoice, sampleQuote, sampleSignature, signedSampleQuote } from '../support/quote-pdf-samples.ts';

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes.slice());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(bytes.slice()), { mergePages: false });
  return text;
}

describe('PDFs in workerd', () => {
  it('renders a signed quote with its certificate page, the same bytes as in Node', async () => {
    const quote = await signedSampleQuote();
    const bytes = await renderQuotePdf(quote);
    expect(await sha256Hex(bytes)).toBe(SIGNED_SAMPLE_PDF_SHA256);
    const texts = await pageTexts(bytes);
    expect(texts[0]).toContain('Q-2026-0007');
    expect(texts[0]).toContain('$1,115.52');
    expect(texts.at(-1)).toContain('Signature certificate');
    expect(texts.at(-1)).toContain(quote.signature!.contentHash);
  });

  it('breaks 100 items over pages and survives text outside the standard fonts', async () => {
    const quote = sampleQuote(100, { contact: { name: '张伟 😀', email: null, company: 'שלום' } });
    const bytes = await renderQuotePdf({ ...quote, signature: sampleSignature(await quoteContentHash(quote)) });
    const texts = await pageTexts(bytes);
    expect(texts.length).toBeGreaterThan(3);
    expect(texts[0]).toContain('?? ?');
    expect(texts.at(-1)).toContain(`Page ${texts.length} of ${texts.length}`);
  });

  it('renders an invoice with amounts past 2^53 cents exactly', async () => {
    const bytes = await renderInvoicePdf(sampleInvoice(1, { subtotal: '999999999999999999', tax: 0, total: '999999999999999999', amountPaid: 0, payments: [] }));
    const [text] = await pageTexts(bytes);
    expect(text).toContain('€9,999,999,999,999,999.99');
  });
});
