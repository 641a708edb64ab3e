// The invoice PDF: the quote's layout with due date, payments and balance.
import { describe, expect, it } from 'vitest';
import { renderInvoicePdf } from '../../app/features/invoices/pdf/invoice-layout.ts';
import { sampleInvoice } from '../support/quote-pdf-samples.ts';
import { count, loadPdf, pageTexts, sha256Hex } from '../support/pdf.ts';

describe('renderInvoicePdf', () => {
  it('shows the invoice number, due date, items, totals, payments and the balance', async () => {
    const invoice = sampleInvoice(2);
    const bytes = await renderInvoicePdf(invoice);
    const pdf = await loadPdf(bytes);
    expect(pdf.getTitle()).toBe('Invoice INV-2026-0042');
    expect(pdf.getPageCount()).toBe(1);
    const [text] = await pageTexts(bytes);
    // 2 × €126.00 + 3 × €127.00 = €633.00; tax 8.25% €52.22; total €685.22; half paid.
    for (const expected of [
      'Invoice',
      'INV-2026-0042',
      'Pending',
      'Nov 21, 2026',
      'Dec 5, 2026',
      'Bill to'.toUpperCase(),
      'Grace Hopper',
      'Line 2: Consulting hours',
      '€633.00',
      'Tax (8.25%)',
      '€52.22',
      '€685.22',
      'Paid',
      '-€342.61',
      'Balance due',
      '€342.61',
      'PAYMENTS',
      'Nov 25, 2026',
      'Bank transfer',
      'SEPA-88121',
      'Page 1 of 1',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('computes the balance exactly past 2^53 cents', async () => {
    const bytes = await renderInvoicePdf(
      sampleInvoice(1, { subtotal: '999999999999999999', tax: '0', total: '999999999999999999', amountPaid: '1', payments: [] }),
    );
    const [text] = await pageTexts(bytes);
    expect(text).toContain('€9,999,999,999,999,999.98');
    expect(count(text, 'PAYMENTS')).toBe(0);
  });

  it('shows the tax without a rate when none is given, and "On receipt" without a due date', async () => {
    const [text] = await pageTexts(await renderInvoicePdf(sampleInvoice(1, { taxRate: null, dueDate: null })));
    expect(text).toMatch(/\bTax\b(?! \()/);
    expect(text).not.toContain('Tax (');
    expect(text).toContain('On receipt');
  });

  it('shows a discount line only when the invoice has a discount (one converted from a discounted quote)', async () => {
    const [plain] = await pageTexts(await renderInvoicePdf(sampleInvoice(1)));
    expect(plain).not.toContain('Discount');
    const [discounted] = await pageTexts(await renderInvoicePdf(sampleInvoice(1, { discountPercent: '12.5', discount: '1250' })));
    expect(discounted).toContain('Discount (12.5%)');
    expect(discounted).toContain('-€12.50');
  });

  it('repeats the table header over pages and is the same bytes every time', async () => {
    const invoice = sampleInvoice(100);
    const first = await renderInvoicePdf(invoice);
    const texts = await pageTexts(first);
    expect(texts.length).toBeGreaterThan(2);
    texts.slice(0, -1).forEach((text) => expect(text).toContain('Unit price'));
    expect(await sha256Hex(await renderInvoicePdf(structuredClone(invoice)))).toBe(await sha256Hex(first));
  });
});
