// What quote and invoice PDFs share (decision 026): pdf-lib with the standard fonts,
// the same bytes for the same input. Each layout is in its feature
// (app/features/quotes/pdf/quote-layout.ts, app/features/invoices/pdf/invoice-layout.ts).
export { quoteCanonicalJson, quoteContentHash, signedDocumentHash, type QuoteContent } from './content-hash.ts';
export { PDF_CREATOR, PDF_PRODUCER } from './document.ts';
export type * from './types.ts';
