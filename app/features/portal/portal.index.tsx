// /portal: the quotes sent to the client (never a draft), newest first. An
// open one offers Review and sign: its page is the quote's own signing page
// (/q/:token), opened by a short link of the client's own (decision 050).
import { Form } from 'react-router';
import type { Route } from './+types/portal.index';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { PdfLink, PortalList } from './portal-parts';
import { loadPortalQuotes, type PortalQuote } from './queries.server';
import { PORTAL_TEXTS as T } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(T.quotesTitle) }];

/** Open: sent or viewed and not past its expiry, so it can still be signed or declined. */
function isOpen(quote: PortalQuote, now: number): boolean {
  return (quote.status === 'sent' || quote.status === 'viewed') && (!quote.expires_at || Date.parse(quote.expires_at) > now);
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const [, list] = await requireUserWith(request, context, (supabase) => loadPortalQuotes(supabase, url));
  const now = Date.now();
  return { list: { ...list, rows: list.rows.map((quote) => ({ ...quote, open: isOpen(quote, now) })) } };
}

export default function PortalQuotes({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <PortalList
      title={T.quotesTitle}
      description={T.quotesDescription}
      list={list}
      texts={{ empty: T.quotesEmpty, loadFailed: T.quotesFailed }}
      pathname="/portal"
      noun="quotes"
    >
      {list.rows.map((quote) => {
        const number = quote.quote_number ?? 'Quote';
        return (
          <li key={quote.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="grid min-w-0 gap-1">
              <p className="font-medium">{number}</p>
              <p className="text-xs text-muted-foreground">
                Sent {formatShortDate(quote.sent_at)} · {quote.expires_at ? `Valid until ${formatShortDate(quote.expires_at)}` : 'No expiry'}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <span className="font-semibold">{formatMoney(Number(quote.total), quote.currency)}</span>
              <StatusBadge status={quote.status} />
              <PdfLink href={`/quotes/${quote.id}/pdf`} label={number} />
              {quote.open ? (
                // A post: the link is issued (and audited) only when asked for, never by a prefetch.
                <Form method="post" action={`/portal/quotes/${quote.id}/sign`}>
                  <button type="submit" className={buttonClasses('default', 'sm')} aria-label={`${T.reviewAndSign}: ${number}`}>
                    {T.reviewAndSign}
                  </button>
                </Form>
              ) : null}
            </div>
          </li>
        );
      })}
    </PortalList>
  );
}
