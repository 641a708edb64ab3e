// A client's (or supplier's) only page: the quotes addressed to them, or
// 'Nothing has been shared with you yet'. No figures, no search, no create:
// nothing of the account's pipeline is theirs to see. The rows are the record
// table's, unsorted (the client's view reads quote_list without its indexes' sorts).
import { ListPager } from '~/components/list-pager';
import { ListRegion } from '~/components/list-states';
import { PageHeader } from '~/components/page-header';
import { RecordEmpty } from '~/components/records/record-empty';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent } from '~/components/ui/card';
import type { ListPage } from '~/lib/list-query';
import { formatMoney } from '~/lib/money';
import { formatShortDate } from '~/lib/dates';
import type { SharedQuote } from './queries.server';
import { MY_QUOTES_TEXTS } from './texts';

const COLUMNS: RecordColumn<SharedQuote>[] = [
  { id: 'number', header: 'Number', cell: (quote) => quote.quote_number ?? 'Draft Quote' },
  { id: 'status', header: 'Status', cell: (quote) => <StatusBadge status={quote.status ?? 'draft'} />, phone: true },
  { id: 'sent', header: 'Sent', cell: (quote) => formatShortDate(quote.created_at), className: 'whitespace-nowrap text-muted-foreground' },
  {
    id: 'expires',
    header: 'Expires',
    cell: (quote) => (quote.expires_at ? formatShortDate(quote.expires_at) : 'No expiry'),
    className: 'whitespace-nowrap text-muted-foreground',
  },
  { id: 'total', header: 'Total', cell: (quote) => formatMoney(Number(quote.total), quote.currency ?? 'USD'), numeric: true, phone: true },
];

export function MyQuotes({ list }: { list: ListPage<SharedQuote> }) {
  return (
    <>
      <PageHeader title={MY_QUOTES_TEXTS.title} description={MY_QUOTES_TEXTS.description} />
      <Card>
        <CardContent className="pt-6">
          <ListRegion label={MY_QUOTES_TEXTS.title}>
            {list.failed ? (
              <p role="alert" className="py-10 text-center text-sm text-destructive">
                {MY_QUOTES_TEXTS.loadFailed}
              </p>
            ) : list.rows.length === 0 ? (
              <RecordEmpty title={MY_QUOTES_TEXTS.empty} />
            ) : (
              <RecordTable
                caption={MY_QUOTES_TEXTS.title}
                pathname="/quotes"
                rows={list.rows}
                columns={COLUMNS}
                rowKey={(quote) => quote.id ?? quote.quote_number ?? ''}
                href={(quote) => (quote.id ? `/quotes/${quote.id}` : null)}
                phoneLine={(quote) => (quote.expires_at ? `Expires ${formatShortDate(quote.expires_at)}` : 'No expiry')}
              />
            )}
            <ListPager list={list} pathname="/quotes" noun="quotes" />
          </ListRegion>
        </CardContent>
      </Card>
    </>
  );
}
