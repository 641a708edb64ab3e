// /i/:token/pdf: the PDF of the invoice a public link opens (the link in the
// invoice's mail); a link that opens nothing is a 404, one used too often in
// the last minute a 429 (counted by the database, decision 043). Never cached or indexed.
import type { Route } from './+types/public-invoice-pdf';
import { getRequestSupabase } from '~/lib/supabase.server';
import { invoicePdfResponse, readInvoiceLinkDocument } from './invoice-document.server';

const HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };

export async function loader({ context, params }: Route.LoaderArgs) {
  const document = await readInvoiceLinkDocument(getRequestSupabase(context).supabase, params.token);
  if (document === 'rate_limited') {
    return new Response('Too many requests for this link. Try again in a minute.', { status: 429, headers: { ...HEADERS, 'Retry-After': '60' } });
  }
  return document ? invoicePdfResponse(document, HEADERS) : new Response('Invoice not found', { status: 404, headers: HEADERS });
}
