// /quotes/:id/pdf: a quote's PDF for whoever may read the quote (staff of its
// account, the client it is addressed to); with the certificate page once
// signed. Anyone else, and an id that is no quote, get a 404.
import type { Route } from './+types/quote-pdf';
import { requireUser } from '~/lib/auth.server';
import { isUuid } from '~/lib/records.server';
import { quotePdfResponse, readQuoteDocument } from './quote-document.server';

const notFound = () => new Response('Quote not found', { status: 404, headers: { 'Cache-Control': 'private, no-store' } });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  if (!isUuid(params.id)) return notFound();
  const document = await readQuoteDocument(supabase, params.id);
  return document ? quotePdfResponse(document) : notFound();
}
