// The seller on a quote's and an invoice's PDF (decision 045): name, address,
// country, tax ID and registration in the heading; the invoice's payment
// section with terms, IBAN (grouped) and BIC. Without a seller, the PDF is
// the same as before (the pinned hashes of quote-pdf-samples hold).
import { describe, expect, it } from 'vitest';
import { renderInvoicePdf } from '../../app/features/invoices/pdf/invoice-layout.ts';
import { renderQuotePdf } from '../../app/features/quotes/pdf/quote-layout.ts';
import { SAMPLE_SELLER, sampleInvoice, sampleQuote } from '../support/quote-pdf-samples.ts';
import { pageTexts } from '../support/pdf.ts';

const HEADING = ['Northwind Trading GmbH', '1 Harbour Street', 'Floor 2', '10115 Berlin', 'Germany', 'Tax ID: DE123456789', 'Company registration: HRB 12345'];

describe('the seller on PDFs', () => {
  it('prints the seller in a quote heading', async () => {
    const [text] = await pageTexts(await renderQuotePdf(sampleQuote(2, { seller: SAMPLE_SELLER })));
    for (const expected of HEADING) expect(text).toContain(expected);
  });

  it('prints the seller and how to pay on an invoice', async () => {
    const [text] = await pageTexts(await renderInvoicePdf(sampleInvoice(2, { seller: SAMPLE_SELLER })));
    for (const expected of [...HEADING, 'PAYMENT', 'Net 30. Thank you for your business.', 'IBAN: DE89 3704 0044 0532 0130 00', 'BIC: COBADEFFXXX', 'Commerzbank Berlin']) {
      expect(text).toContain(expected);
    }
  });

  it('prints no payment section when the seller has no terms or bank details', async () => {
    const seller = { ...SAMPLE_SELLER, payment_terms: null, iban: null, bic: null, bank_details: null };
    const [text] = await pageTexts(await renderInvoicePdf(sampleInvoice(1, { seller })));
    expect(text).not.toMatch(/\bPAYMENT\b(?!S)/);
    expect(text).toContain('Tax ID: DE123456789');
  });
});
