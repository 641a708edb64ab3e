// /portal/documents: the quotes the client signed; each PDF ends with its
// signature certificate (decision 041).
import type { Route } from './+types/portal.documents';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { PdfLink, PortalList } from './portal-parts';
import { loadSignedQuotes } from './queries.server';
import { PORTAL_TEXTS as T } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(T.documentsTitle) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const [, list] = await requireUserWith(request, context, (supabase) => loadSignedQuotes(supabase, url));
  return { list };
}

export default function PortalDocuments({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <PortalList
      title={T.documentsTitle}
      description={T.documentsDescription}
      list={list}
      texts={{ empty: T.documentsEmpty, loadFailed: T.documentsFailed }}
      pathname="/portal/documents"
      noun="documents"
    >
      {list.rows.map((quote) => {
        const name = `Quote ${quote.quote_number ?? ''}`.trim();
        return (
          <li key={quote.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="grid min-w-0 gap-1">
              <p className="font-medium">{name}</p>
              <p className="text-xs text-muted-foreground">
                {/* Quotes marked signed before signatures were recorded have no date. */}
                {quote.signed_at ? `Signed ${formatShortDate(quote.signed_at)}` : 'Signed'} · {formatMoney(Number(quote.total), quote.currency)}
              </p>
            </div>
            <PdfLink href={`/quotes/${quote.id}/pdf`} label={name} />
          </li>
        );
      })}
    </PortalList>
  );
}
