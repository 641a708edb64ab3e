// /track/:tracking_number/logo: the seller's logo on the public tracking page,
// from our own origin (decision 051's pattern for /q/:token/logo). The tracking
// number is the link's token: the database says which logo that one shipment's
// page may show (track_shipment_logo: its account's, nothing of another), the
// same per-IP limit as the page counts each call.
import type { Route } from './+types/track-logo';
import { LOGO_REFUSALS, linkLogoResponse, type LinkLogoAnswer } from '~/lib/link-logo.server';
import { getRequestSupabase } from '~/lib/supabase.server';
import { TRACKING_NUMBER_PATTERN, trackingIpAllowed } from './limits.server';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (!(await trackingIpAllowed(request))) return LOGO_REFUSALS.limited();
  if (!TRACKING_NUMBER_PATTERN.test(params.tracking_number)) return LOGO_REFUSALS.notFound();
  const { data, error } = await getRequestSupabase(context).supabase.rpc('track_shipment_logo', { p_tracking_number: params.tracking_number });
  if (error) {
    console.error(`tracking logo: ${error.message}`);
    return LOGO_REFUSALS.unavailable();
  }
  return linkLogoResponse(data as LinkLogoAnswer);
}
