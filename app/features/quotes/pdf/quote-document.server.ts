// A quote as its PDF shows it, read in one call (quote_document for whoever
// may read the quote, quote_link_document for the holder of its public link)
// and rendered by app/lib/pdf. The same input gives the same bytes, so a
// signed quote's PDF is stable.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import type { QuotePdfInput } from '~/lib/pdf';
import { renderQuotePdf } from './quote-layout';
import { pdfAttachment, pdfFileName, pdfResponse } from '~/lib/pdf/delivery';
import { sellerLogo } from '~/lib/seller-logo.server';

type Client = SupabaseClient<Database>;

/** The database's answer: QuotePdfInput's shape, a drawn signature in base64. */
export type QuoteDocumentJson = Omit<QuotePdfInput, 'signature'> & {
  signature: (Omit<NonNullable<QuotePdfInput['signature']>, 'drawnSignaturePng'> & { drawnSignaturePng: string | null }) | null;
};

export type LinkDocument = { document: QuotePdfInput } | { limited: true } | null;

function fromBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The renderer's input from the database's answer (the drawn signature decoded). */
export function toPdfInput(json: QuoteDocumentJson): QuotePdfInput {
  const { signature, ...quote } = json;
  if (!signature) return { ...quote, signature: null };
  const { drawnSignaturePng, ...evidence } = signature;
  return { ...quote, signature: { ...evidence, drawnSignaturePng: drawnSignaturePng ? fromBase64(drawnSignaturePng) : null } };
}

/** The quote, if the caller may read it (null otherwise); throws when the database cannot answer. */
export async function readQuoteDocument(client: Client, quoteId: string): Promise<QuotePdfInput | null> {
  const { data, error } = await client.rpc('quote_document', { p_quote_id: quoteId });
  if (error) throw new Error(`reading quote ${quoteId} for its PDF failed: ${error.message}`);
  return data ? toPdfInput(data as unknown as QuoteDocumentJson) : null;
}

/** The quote a public link opens; counted against the link's limit. */
export async function readLinkDocument(client: Client, token: string): Promise<LinkDocument> {
  const { data, error } = await client.rpc('quote_link_document', { p_token: token });
  if (error) throw new Error(`reading a quote link's document failed: ${error.message}`);
  if (!data) return null;
  if ((data as { limited?: boolean }).limited) return { limited: true };
  return { document: toPdfInput(data as unknown as QuoteDocumentJson) };
}

const fileName = (document: QuotePdfInput) => pdfFileName(document.quoteNumber, 'quote');

export async function quotePdfResponse(document: QuotePdfInput, extraHeaders: Record<string, string> = {}): Promise<Response> {
  return pdfResponse(await renderQuotePdf({ ...document, logo: await sellerLogo(document.seller) }), fileName(document), extraHeaders);
}

/** The PDF for a mail, as the mail senders take attachments. */
export async function quotePdfAttachment(document: QuotePdfInput) {
  return pdfAttachment(await renderQuotePdf({ ...document, logo: await sellerLogo(document.seller) }), fileName(document));
}
