// An invoice as its PDF shows it, read in one call (invoice_document for
// whoever may read the invoice, invoice_link_document for the holder of its
// public link) and rendered by app/lib/pdf.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import type { InvoicePdfInput } from '~/lib/pdf';
import { renderInvoicePdf } from './invoice-layout';
import { pdfAttachment, pdfFileName, pdfResponse } from '~/lib/pdf/delivery';
import { sellerLogo } from '~/lib/seller-logo.server';

type Client = SupabaseClient<Database>;

/** The invoice, if the caller may read it (null otherwise); throws when the database cannot answer. */
export async function readInvoiceDocument(client: Client, invoiceId: string): Promise<InvoicePdfInput | null> {
  const { data, error } = await client.rpc('invoice_document', { p_invoice_id: invoiceId });
  if (error) throw new Error(`reading invoice ${invoiceId} for its PDF failed: ${error.message}`);
  return (data as unknown as InvoicePdfInput | null) ?? null;
}

/** The invoice a public link opens, or null; 'rate_limited' when the link was used too often in the last minute. */
export async function readInvoiceLinkDocument(client: Client, token: string): Promise<InvoicePdfInput | 'rate_limited' | null> {
  const { data, error } = await client.rpc('invoice_link_document', { p_token: token });
  if (error) throw new Error(`reading an invoice link's document failed: ${error.message}`);
  if (data && typeof data === 'object' && 'rate_limited' in data) return 'rate_limited';
  return (data as unknown as InvoicePdfInput | null) ?? null;
}

const fileName = (document: InvoicePdfInput) => pdfFileName(document.invoiceNumber, 'invoice');

export async function invoicePdfResponse(document: InvoicePdfInput, extraHeaders: Record<string, string> = {}): Promise<Response> {
  return pdfResponse(await renderInvoicePdf({ ...document, logo: await sellerLogo(document.seller) }), fileName(document), extraHeaders);
}

/** The PDF for a mail, as the mail senders take attachments. */
export async function invoicePdfAttachment(document: InvoicePdfInput) {
  return pdfAttachment(await renderInvoicePdf({ ...document, logo: await sellerLogo(document.seller) }), fileName(document));
}
