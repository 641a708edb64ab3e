// The carrier hook's URLs as an admin pastes them into EasyPost and
// AfterShip (decision 077): on the site's own origin (SITE_URL), never the
// host a request names, so a forged Host header cannot make the page show
// someone else's server.
import { siteLink } from '~/lib/site-url.server';
import type { Supabase } from '~/lib/supabase.server';
import { CARRIER_PROVIDERS, type CarrierProvider } from './signatures';

export function carrierHookUrls(token: string): { provider: CarrierProvider; url: string }[] {
  return CARRIER_PROVIDERS.map((provider) => ({ provider, url: siteLink(`/hooks/carriers/${provider}/${encodeURIComponent(token)}`) }));
}

/** The account's hook as Integrations shows it to admins (null when there is none yet, or the caller is no admin). */
export async function readCarrierHook(supabase: Supabase) {
  const { data, error } = await supabase.rpc('carrier_hook');
  // Non-admins are refused by the database (42501): they see no card.
  if (error) return { denied: true as const, hook: null };
  const row = (data ?? [])[0];
  return { denied: false as const, hook: row ? { urls: carrierHookUrls(row.token), rotatedAt: row.rotated_at } : null };
}
