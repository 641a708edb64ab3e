// /i/:token/logo: the seller's logo on the invoice's public page, from our
// own origin (decision 051), counted by the link's limits as the page is.
import type { Route } from './+types/public-invoice-logo';
import { LOGO_REFUSALS, linkLogoResponse, type LinkLogoAnswer } from '~/lib/link-logo.server';
import { getRequestSupabase } from '~/lib/supabase.server';

export async function loader({ context, params }: Route.LoaderArgs) {
  const { data, error } = await getRequestSupabase(context).supabase.rpc('invoice_link_logo', { p_token: params.token });
  if (error) {
    console.error(`invoice link logo: ${error.message}`);
    return LOGO_REFUSALS.unavailable();
  }
  return linkLogoResponse(data as LinkLogoAnswer);
}
