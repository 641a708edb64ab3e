// Resend and Copy client link, for a sent quote and a sent invoice (issue 31,
// decision 047). The database decides who may (admins and members), counts the
// resends (5 an hour per record) and voids the old link; this file asks it and
// builds the new link on SITE_URL only, never on the host the request named.
import { siteLink } from '~/lib/site-url.server';
import type { Supabase } from '~/lib/supabase.server';

export type LinkedRecord = 'quote' | 'invoice';

/** The mail queued again (the jobs runner sends it with a fresh link); `requestId` makes a double post one mail. */
export function resendRecord(supabase: Supabase, kind: LinkedRecord, id: string, requestId: string) {
  return kind === 'quote'
    ? supabase.rpc('resend_quote', { p_quote_id: id, p_request_id: requestId })
    : supabase.rpc('resend_invoice', { p_invoice_id: id, p_request_id: requestId });
}

/** A new client link; the one before it stops working. */
export async function renewClientLink(supabase: Supabase, kind: LinkedRecord, id: string) {
  const { data: token, error } =
    kind === 'quote'
      ? await supabase.rpc('renew_quote_link', { p_quote_id: id })
      : await supabase.rpc('renew_invoice_link', { p_invoice_id: id });
  if (error || !token) return { link: null, error };
  return { link: siteLink(`/${kind === 'quote' ? 'q' : 'i'}/${token}`), error: null };
}
