// /i/:token/pdf: the PDF of the invoice a public link opens (the link in the
// invoice's mail); a link that opens nothing is a 404. Never cached or indexed.
import type { Route } from './+types/public-invoice-pdf';
import { getRequestSupabase } from '~/lib/supabase.server';
import { invoicePdfResponse, readInvoiceLinkDocument } from './invoice-document.server';

const HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };

export async function loader({ context, params }: Route.LoaderArgs) {
  const document = await readInvoiceLinkDocument(getRequestSupabase(context).supabase, params.token);
  return document ? invoicePdfResponse(document, HEADERS) : new Response('Invoice not found', { status: 404, headers: HEADERS });
}
