// Quote and invoice PDFs (decision 026): pdf-lib with the standard fonts,
// the same bytes for the same input.
export { quoteCanonicalJson, quoteContentHash, signedDocumentHash, type QuoteContent } from './content-hash.ts';
export { PDF_CREATOR, PDF_PRODUCER } from './document.ts';
export { renderInvoicePdf } from './invoice.ts';
export { renderQuotePdf } from './quote.ts';
export type * from './types.ts';
