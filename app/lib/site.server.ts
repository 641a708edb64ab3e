// The landing page's public facts: the master account's name, contact email and
// description, read through the one function the anonymous role may call
// (get_public_site_info). Any failure falls back to the defaults (docs/product-guide.md).
import { env } from 'cloudflare:workers';
import { createClient } from '@supabase/supabase-js';
import { DEFAULT_SITE, type SiteInfo } from '~/lib/site';

/** A marketing page must not hang on a slow backend. */
const SITE_INFO_TIMEOUT_MS = 1_500;

interface PublicSiteRow {
  name: string | null;
  contact_email: string | null;
  description: string | null;
}

export async function loadPublicSiteInfo(): Promise<SiteInfo> {
  try {
    const supabase = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: {
        fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(SITE_INFO_TIMEOUT_MS) }),
      },
    });
    const { data, error } = await supabase.rpc('get_public_site_info').maybeSingle<PublicSiteRow>();
    if (error) {
      console.warn(`landing: site info unavailable, using defaults (${error.message})`);
      return DEFAULT_SITE;
    }
    return {
      name: data?.name || DEFAULT_SITE.name,
      contactEmail: data?.contact_email || DEFAULT_SITE.contactEmail,
      description: data?.description || DEFAULT_SITE.description,
    };
  } catch (error) {
    console.warn(`landing: site info unavailable, using defaults (${String(error)})`);
    return DEFAULT_SITE;
  }
}
