// /q/:token/pdf: the PDF of the quote a public link opens (with its
// certificate page once signed). The same limits as the page: a 404 for a
// link that opens nothing, a 429 when the link or the address is used up.
import type { Route } from './+types/public-quote-pdf';
import { getRequestSupabase } from '~/lib/supabase.server';
import { quotePdfResponse, readLinkDocument } from '../pdf/quote-document.server';
import { ipAllowed, TOKEN_PATTERN } from './queries.server';
import { PUBLIC_QUOTE_TEXTS as T } from './texts';

const HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (!(await ipAllowed(request))) return new Response(T.rateLimitedText, { status: 429, headers: HEADERS });
  if (!TOKEN_PATTERN.test(params.token)) return new Response(T.notFoundText, { status: 404, headers: HEADERS });
  const answer = await readLinkDocument(getRequestSupabase(context).supabase, params.token);
  if (!answer) return new Response(T.notFoundText, { status: 404, headers: HEADERS });
  if ('limited' in answer) return new Response(T.rateLimitedText, { status: 429, headers: HEADERS });
  return quotePdfResponse(answer.document, HEADERS);
}
