// The quote PDF read back as a viewer would: pdf-lib for its pages and
// metadata, unpdf (pdf.js) for the text on each page.
import { describe, expect, it } from 'vitest';
import { PDF_CREATOR, PDF_PRODUCER, quoteContentHash } from '../../app/lib/pdf/index.ts';
import { renderQuotePdf } from '../../app/features/quotes/pdf/quote-layout.ts';
import { SIGNED_SAMPLE_PDF_SHA256, sampleQuote, sampleSignature, signedSampleQuote } from '../support/quote-pdf-samples.ts';
import { count, loadPdf, pageTexts, sha256Hex } from '../support/pdf.ts';

describe('renderQuotePdf', () => {
  it('shows the account, the quote, its contact, items and totals', async () => {
    const bytes = await renderQuotePdf(sampleQuote(3));
    const pdf = await loadPdf(bytes);
    expect(pdf.getPageCount()).toBe(1);
    const [text] = await pageTexts(bytes);
    for (const expected of [
      'Northwind Trading',
      'sales@northwind.example',
      'Q-2026-0007',
      'Sent',
      'Nov 20, 2026',
      'Dec 20, 2026',
      'USD',
      'Ada Lovelace',
      'Analytical Engines Ltd',
      'ada@analytical.example',
      'Line 1: Consulting hours',
      'Line 3: Consulting hours',
      '$126.00',
      '$252.00',
      'Subtotal',
      '$1,145.00',
      'Discount (10%)',
      '-$114.50',
      'Tax (8.25%)',
      '$85.02',
      'Total',
      '$1,115.52',
      'Prices valid for 30 days.',
      'Page 1 of 1',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Signature certificate');
  });

  it('says so when the quote has no contact and no expiry', async () => {
    const bytes = await renderQuotePdf(sampleQuote(1, { contact: null, expiresAt: null, notes: null }));
    const pdf = await loadPdf(bytes);
    expect(pdf.getSubject()).toBe('Quote Q-2026-0007');
    const [text] = await pageTexts(bytes);
    expect(text).toContain('No contact');
    expect(text).toContain('No expiry');
    expect(text).not.toContain('NOTES');
  });

  it('sets the metadata from the quote, not from the clock', async () => {
    const pdf = await loadPdf(await renderQuotePdf(sampleQuote(1)));
    expect(pdf.getTitle()).toBe('Quote Q-2026-0007');
    expect(pdf.getAuthor()).toBe('Northwind Trading');
    expect(pdf.getSubject()).toBe('Quote Q-2026-0007 for Analytical Engines Ltd');
    expect(pdf.getCreator()).toBe(PDF_CREATOR);
    expect(pdf.getProducer()).toBe(PDF_PRODUCER);
    expect(pdf.getCreationDate()?.toISOString()).toBe('2026-11-20T09:30:00.000Z');
    expect(pdf.getModificationDate()?.toISOString()).toBe('2026-11-20T09:30:00.000Z');
  });

  it('breaks 100 items over pages, each starting with the column titles, numbered "Page n of m"', async () => {
    const quote = sampleQuote(100);
    const bytes = await renderQuotePdf(quote);
    const pages = (await loadPdf(bytes)).getPageCount();
    expect(pages).toBeGreaterThan(2);
    const texts = await pageTexts(bytes);
    expect(texts).toHaveLength(pages);
    texts.forEach((text, index) => {
      expect(count(text, 'Description'), `page ${index + 1}`).toBe(1);
      expect(text).toContain('Unit price');
      expect(text).toContain(`Page ${index + 1} of ${pages}`);
    });
    const all = texts.join('\n');
    // Every item, once, in order; the long descriptions wrapped but whole.
    let from = 0;
    for (let n = 1; n <= 100; n++) {
      const at = all.indexOf(`Line ${n}:`, from);
      expect(at, `Line ${n}`).toBeGreaterThanOrEqual(from);
      from = at;
    }
    expect(count(all, 'written hand-over with runbooks.')).toBe(14);
    expect(texts.at(-1)).toContain('Total');
  });

  it('runs a description longer than a page on to the next page, header repeated', async () => {
    const words = Array.from({ length: 1500 }, (_, i) => `word${i}`).join(' ');
    const bytes = await renderQuotePdf(sampleQuote(1, { items: [{ description: `${words} END`, quantity: 1, unitPrice: 100, lineTotal: 100 }] }));
    const texts = await pageTexts(bytes);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join(' ')).toContain('END');
    for (const text of texts) expect(text).toContain('Description');
  });

  it('prints amounts up to 10^18 cents exactly, in a string or a bigint', async () => {
    const huge = '1000000000000000001';
    const bytes = await renderQuotePdf(
      sampleQuote(1, {
        items: [{ description: 'Everything', quantity: '1', unitPrice: huge, lineTotal: BigInt(huge) }],
        subtotal: huge,
        discountPercent: 0,
        discount: 0,
        taxRate: 0,
        tax: 0,
        total: BigInt(huge),
      }),
    );
    const [text] = await pageTexts(bytes);
    expect(count(text, '$10,000,000,000,000,000.01')).toBe(4);
    // No discount: no discount line; the tax rate shows even at 0%.
    expect(text).not.toContain('Discount');
    expect(text).toContain('Tax (0%)');
  });

  it('ends an account name too long for two lines with an ellipsis', async () => {
    const name = `Very ${'Long '.repeat(40)}Name Holdings`;
    const [text] = await pageTexts(await renderQuotePdf(sampleQuote(1, { account: { name, contactEmail: null } })));
    expect(text).toContain('Very Long Long');
    expect(text).toContain('…');
    expect(text).not.toContain('Holdings');
  });

  it('adds a signature certificate page with the signer, the time, where from and the hash', async () => {
    const quote = sampleQuote(3, { status: 'signed' });
    const hash = await quoteContentHash(quote);
    const bytes = await renderQuotePdf({ ...quote, signature: sampleSignature(hash) });
    const pdf = await loadPdf(bytes);
    expect(pdf.getPageCount()).toBe(2);
    expect(pdf.getModificationDate()?.toISOString()).toBe('2026-11-22T14:05:09.000Z');
    const texts = await pageTexts(bytes);
    expect(texts[0]).not.toContain('Signature certificate');
    const certificate = texts[1];
    for (const expected of [
      'Signature certificate',
      'Quote Q-2026-0007',
      'Ada Lovelace',
      'ada@analytical.example',
      '2026-11-22 14:05:09 UTC',
      '203.0.113.7',
      'Mozilla/5.0',
      hash,
      'Page 2 of 2',
    ]) {
      expect(certificate, expected).toContain(expected);
    }
  });

  it('still gives a certificate when the drawn signature is not a PNG', async () => {
    const quote = sampleQuote(1);
    const bytes = await renderQuotePdf({ ...quote, signature: sampleSignature('ab'.repeat(32), { drawnSignaturePng: new Uint8Array([1, 2, 3]), ip: null }) });
    const texts = await pageTexts(bytes);
    expect(texts[1]).toContain('The drawn signature could not be read.');
    expect(texts[1]).toContain('Not recorded');
  });

  it('is the same bytes for the same input, so its SHA-256 is stable', async () => {
    const quote = sampleQuote(20);
    const signature = sampleSignature(await quoteContentHash(quote));
    const first = await renderQuotePdf({ ...quote, signature });
    const second = await renderQuotePdf(structuredClone({ ...quote, signature }));
    expect(second).toEqual(first);
    expect(await sha256Hex(second)).toBe(await sha256Hex(first));
    // And it changes with the content: a different total is a different file.
    const changed = await renderQuotePdf({ ...quote, total: '1', signature });
    expect(await sha256Hex(changed)).not.toBe(await sha256Hex(first));
  });

  it('gives the pinned bytes for the signed sample, as workerd does (tests/worker/pdf.test.ts)', async () => {
    expect(await sha256Hex(await renderQuotePdf(await signedSampleQuote()))).toBe(SIGNED_SAMPLE_PDF_SHA256);
  });

  it('does not throw on text the standard fonts cannot draw, and keeps what they can', async () => {
    const quote = sampleQuote(1, {
      account: { name: 'Ünïcode GmbH 北京', contactEmail: null },
      contact: { name: '张伟', email: 'zhang@example.cn', company: 'שלום עולם' },
      items: [
        { description: 'Café crème 😀👍🏽 — “quoted” €5\tand a tab', quantity: 1, unitPrice: 500, lineTotal: 500 },
        { description: 'مرحبا بالعالم and Łódź, Ωmega', quantity: 2, unitPrice: 100, lineTotal: 200 },
      ],
      notes: 'Emoji family 👨‍👩‍👧 and zero\u200Bwidth',
    });
    const bytes = await renderQuotePdf({ ...quote, signature: sampleSignature('0'.repeat(64), { signerName: '李雷 🖊️', userAgent: null }) });
    const text = (await pageTexts(bytes)).join('\n');
    expect(text).toContain('Ünïcode GmbH ??');
    expect(text).toContain('??');
    expect(text).toContain('Café crème ?? — “quoted” €5 and a tab');
    expect(text).toContain('and ?ódz, ?mega');
    expect(text).toContain('Emoji family ? and zerowidth');
    expect(text).toContain('?? ?');
  });
});
