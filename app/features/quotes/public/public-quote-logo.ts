// /q/:token/logo: the seller's logo on the quote's public page, from our own
// origin (decision 051). The same limits as the page and its PDF.
import type { Route } from './+types/public-quote-logo';
import { LOGO_REFUSALS, linkLogoResponse, type LinkLogoAnswer } from '~/lib/link-logo.server';
import { getRequestSupabase } from '~/lib/supabase.server';
import { ipAllowed, TOKEN_PATTERN } from './queries.server';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (!(await ipAllowed(request))) return LOGO_REFUSALS.limited();
  if (!TOKEN_PATTERN.test(params.token)) return LOGO_REFUSALS.notFound();
  const { data, error } = await getRequestSupabase(context).supabase.rpc('quote_link_logo', { p_token: params.token });
  if (error) {
    console.error(`quote link logo: ${error.message}`);
    return LOGO_REFUSALS.unavailable();
  }
  return linkLogoResponse(data as LinkLogoAnswer);
}
