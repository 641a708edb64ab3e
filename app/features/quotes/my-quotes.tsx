// A client's (or supplier's) only page: the quotes addressed to them, or
// 'Nothing has been shared with you yet'. No figures, no search, no create:
// nothing of the account's pipeline is theirs to see.
import { Link } from 'react-router';
import { ListPager } from '~/components/list-pager';
import { ListBody, ListRegion } from '~/components/list-states';
import { PageHeader } from '~/components/page-header';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent } from '~/components/ui/card';
import type { ListPage } from '~/lib/list-query';
import { formatMoney } from '~/lib/money';
import { formatShortDate } from '~/lib/dates';
import type { SharedQuote } from './queries.server';
import { MY_QUOTES_TEXTS } from './texts';

export function MyQuotes({ list }: { list: ListPage<SharedQuote> }) {
  return (
    <>
      <PageHeader title={MY_QUOTES_TEXTS.title} description={MY_QUOTES_TEXTS.description} />
      <Card>
        <CardContent className="pt-6">
          <ListRegion label={MY_QUOTES_TEXTS.title}>
            <ListBody list={list} texts={MY_QUOTES_TEXTS}>
              {list.rows.map((quote) => (
                <li key={quote.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
                  <div className="grid gap-1">
                    <p className="font-medium">
                      <Link to={`/quotes/${quote.id}`} className="underline-offset-2 hover:underline">
                        {quote.quote_number ?? 'Draft Quote'}
                      </Link>
                    </p>
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
            </ListBody>
            <ListPager list={list} pathname="/quotes" noun="quotes" />
          </ListRegion>
        </CardContent>
      </Card>
    </>
  );
}
