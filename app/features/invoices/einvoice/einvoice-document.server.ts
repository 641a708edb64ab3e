// What the e-invoice routes hand the writers: the invoice as its PDF reads
// it (invoice_document: staff of its account, or its client once it was
// sent; null for anyone else) with the seller and the buyer, and the
// responses for a download, a refusal and an invoice that is not found.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { pdfFileName } from '~/lib/pdf/delivery';
import type { InvoicePdfInput } from '~/lib/pdf';
import { readInvoiceDocument } from '../pdf/invoice-document.server';
import { type EInvoiceIncomplete, type EInvoiceInput, type SellerSnapshot } from './index';

const HEADERS = { 'Cache-Control': 'private, no-store' };

/** A seller of whom only the account's name is known. */
function sellerNamed(name: string): SellerSnapshot {
  return {
    name,
    address_line1: null,
    address_line2: null,
    postal_code: null,
    city: null,
    region: null,
    country: null,
    tax_id: null,
    company_registration: null,
    iban: null,
    bic: null,
    bank_details: null,
    payment_terms: null,
    logo_path: null,
    accent_color: null,
  };
}

/** The e-invoice's input, or null when the caller may not read the invoice. */
export async function readEInvoiceInput(client: SupabaseClient<Database>, invoiceId: string): Promise<EInvoiceInput | null> {
  const invoice = await readInvoiceDocument(client, invoiceId);
  if (!invoice) return null;
  // The seller as the invoice was sent (its snapshot), or the account as it is now for a draft
  // (invoice_document gives either); the buyer's address and country from the invoice's client
  // (decision 052).
  const seller: SellerSnapshot = { ...sellerNamed(invoice.account.name), ...(invoice.seller ?? {}) };
  const { buyer } = invoice as InvoicePdfInput & { buyer?: { address: string | null; country: string | null } };
  return { invoice, seller, buyer: { address: buyer?.address ?? null, country: buyer?.country ?? null } };
}

export const invoiceNotFound = () => new Response('Invoice not found', { status: 404, headers: HEADERS });

/** A mandatory EN 16931 term has no value: say which, as plain text (409: the invoice is not ready for it). */
export function incompleteResponse(error: EInvoiceIncomplete): Response {
  return new Response(`This invoice cannot be made an e-invoice yet. ${error.message}`, {
    status: 409,
    headers: { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/** 'INV-2026-0042' → 'INV-2026-0042-ubl.xml' (the PDF's file name rule). */
export const xmlFileName = (number: string, format: string) => pdfFileName(number, 'invoice').replace(/\.pdf$/, `-${format}.xml`);

export function xmlResponse(xml: string, fileName: string): Response {
  return new Response(xml, {
    headers: { ...HEADERS, 'Content-Type': 'application/xml; charset=utf-8', 'Content-Disposition': `attachment; filename="${fileName}"` },
  });
}
