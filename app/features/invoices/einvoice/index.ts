// E-invoices (EN 16931, decision 049): an invoice as UBL 2.1 (Peppol BIS
// Billing 3.0), as CII (Factur-X EN 16931), and as a Factur-X PDF (the
// invoice PDF with the CII embedded). Pure functions of the invoice, its
// seller snapshot and its buyer; they run in workerd and in Node alike.
import { toDate } from '../../../lib/pdf/document.ts';
import { renderInvoicePdf } from '../pdf/invoice-layout.ts';
import { toCii } from './cii.ts';
import { embedFacturX } from './facturx.ts';
import { toEInvoice, type EInvoiceInput } from './model.ts';
import { toUbl } from './ubl.ts';

export { EInvoiceIncomplete, toEInvoice, type BuyerDetails, type EInvoice, type EInvoiceInput, type SellerSnapshot } from './model.ts';
export { FACTURX_CONFORMANCE, FACTURX_FILE_NAME, FACTURX_NS } from './facturx.ts';
export { CII_GUIDELINE_ID, CII_NS } from './cii.ts';
export { UBL_CUSTOMIZATION_ID, UBL_NS, UBL_PROFILE_ID } from './ubl.ts';

export type EInvoiceFormat = 'ubl' | 'cii';

/** The invoice's XML in either syntax; throws EInvoiceIncomplete when a mandatory term has no value. */
export function renderEInvoiceXml(input: EInvoiceInput, format: EInvoiceFormat): string {
  const model = toEInvoice(input);
  return format === 'ubl' ? toUbl(model) : toCii(model);
}

/** The invoice PDF with its CII XML attached as factur-x.xml. */
export async function renderFacturXPdf(input: EInvoiceInput): Promise<Uint8Array<ArrayBuffer>> {
  const model = toEInvoice(input);
  // PDF/A-3 needs every font embedded (decision 052).
  const pdf = await renderInvoicePdf(input.invoice, { fonts: 'embedded' });
  return embedFacturX(pdf, toCii(model), { date: toDate(input.invoice.issuedAt) });
}
