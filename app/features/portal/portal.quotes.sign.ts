// POST /portal/quotes/:id/sign: Review and sign from the portal. The database
// issues a short link of the client's own for an open quote sent to it
// (portal_quote_link, audited, 20 a minute), and the client is sent to the
// quote's signing page with it (decision 050): the same page, the same
// accept_quote / decline_quote, the same evidence and mails as the mailed link.
import { redirect } from 'react-router';
import { redirectWithError } from 'remix-toast';
import type { Route } from './+types/portal.quotes.sign';
import { requireUser } from '~/lib/auth.server';
import { isUuid } from '~/lib/records.server';
import { issuePortalLink } from './queries.server';
import { PORTAL_TEXTS as T } from './texts';

const REFUSED = {
  not_found: T.quoteNotFound,
  closed: T.cannotSign,
  rate_limited: T.tooMany,
  failed: T.signFailed,
} as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const { supabase } = await requireUser(request, context);
  if (!isUuid(params.id)) throw await redirectWithError('/portal', T.quoteNotFound);
  const answer = await issuePortalLink(supabase, params.id);
  if ('refused' in answer) throw await redirectWithError('/portal', REFUSED[answer.refused]);
  // 303: the quote's page is then fetched with GET, as after any post.
  throw redirect(`/q/${answer.token}?from=portal`, { status: 303, headers: { 'Cache-Control': 'private, no-store' } });
}

/** Nothing to show at this address: the portal's list. */
export function loader() {
  return redirect('/portal');
}
