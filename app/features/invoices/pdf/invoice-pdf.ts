// /invoices/:id/pdf: an invoice's PDF (items, totals, payments, balance) for
// whoever may read the invoice (staff of its account, the client it is
// addressed to). Anyone else, and an id that is no invoice, get a 404.
import type { Route } from './+types/invoice-pdf';
import { requireUser } from '~/lib/auth.server';
import { isUuid } from '~/lib/records.server';
import { invoicePdfResponse, readInvoiceDocument } from './invoice-document.server';

const notFound = () => new Response('Invoice not found', { status: 404, headers: { 'Cache-Control': 'private, no-store' } });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  if (!isUuid(params.id)) return notFound();
  const document = await readInvoiceDocument(supabase, params.id);
  return document ? invoicePdfResponse(document) : notFound();
}
