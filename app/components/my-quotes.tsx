// A client's (or supplier's) only page: the quotes addressed to them, or
// 'Nothing has been shared with you yet'. No figures, no search, no create:
// nothing of the account's pipeline is theirs to see.
import { ListPager } from '~/components/list-pager';
import { ListEmpty, ListRegion } from '~/components/list-states';
import { PageHeader } from '~/components/page-header';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent } from '~/components/ui/card';
import type { ListPage } from '~/lib/list-query';
import { formatMoney } from '~/lib/money';
import { formatShortDate } from '~/lib/relative-time';
import type { SharedQuote } from '~/lib/shared-quotes.server';

export const MY_QUOTES_TEXTS = {
  title: 'My quotes',
  description: 'The quotes addressed to you.',
  empty: 'Nothing has been shared with you yet',
  failed: 'Failed to fetch quotes',
} as const;

export function MyQuotes({ list }: { list: ListPage<SharedQuote> }) {
  const { rows: quotes, failed } = list;
  return (
    <>
      <PageHeader title={MY_QUOTES_TEXTS.title} description={MY_QUOTES_TEXTS.description} />
      <Card>
        <CardContent className="pt-6">
          <ListRegion label={MY_QUOTES_TEXTS.title}>
            {failed ? (
              <p role="alert" className="py-10 text-center text-sm text-destructive">
                {MY_QUOTES_TEXTS.failed}
              </p>
            ) : quotes.length === 0 ? (
              <ListEmpty>{MY_QUOTES_TEXTS.empty}</ListEmpty>
            ) : (
              <ul className="divide-y divide-border">
                {quotes.map((quote) => (
                  <li key={quote.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
                    <div className="grid gap-1">
                      <p className="font-medium">{quote.quote_number ?? 'Draft Quote'}</p>
                      <p className="text-xs text-muted-foreground">
                        Sent {formatShortDate(quote.created_at)} ·{' '}
                        {quote.expires_at ? `Expires ${formatShortDate(quote.expires_at)}` : 'No expiry'}
                      </p>
                    </div>
                    <div className="flex items-center gap-3">
                      <span className="font-semibold">{formatMoney(Number(quote.total), quote.currency ?? 'USD')}</span>
                      <StatusBadge status={quote.status ?? 'draft'} />
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <ListPager list={list} pathname="/quotes" noun="quotes" />
          </ListRegion>
        </CardContent>
      </Card>
    </>
  );
}
