// The Quotes screen (docs/product-guide.md, Quotes): the staff's pipeline,
// searched, filtered and paged by URL, with a create dialog at ?new. A client
// has the portal instead (/portal, decision 050): the shell sends it there.
import { createdColumn, totalColumn } from '~/components/records/columns';
import { FileText, Percent, Wallet, Calculator } from '~/components/icons';
import type { Route } from './+types/quotes';
import { ListScreen } from '~/components/list-screen';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { requireUserWith } from '~/lib/auth.server';
import { readListQuery, statusOptions } from '~/lib/list-query';
import { formatMoneySums } from '~/lib/money';
import { formatShortDate } from '~/lib/dates';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { conversionFigure } from './conversion';
import { NewQuoteForm } from './new-quote-form';
import { quoteHref } from './quote-href';
import { createQuote, loadClientChoices, loadQuotes, quoteCreatedToast, type QuoteRow } from './queries.server';
import { newQuoteSchema, QUOTE_STATUSES } from './schema';
import { QUOTE_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const LIST = '/quotes';
const STATUS_OPTIONS = statusOptions(QUOTE_STATUSES);
/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const QUOTE_SORTS = ['quote_number', 'total', 'expires_at', 'created_at'] as const;

const COLUMNS: RecordColumn<QuoteRow>[] = [
  { id: 'number', header: 'Number', cell: (quote) => quote.quote_number ?? 'Draft Quote', sort: { key: 'quote_number', first: 'desc' } },
  {
    id: 'client',
    header: 'Client',
    cell: (quote) => (quote.contact_name ? `${quote.contact_name} - ${quote.contact_company ?? ''}` : 'No contact'),
    className: 'max-w-64 truncate',
  },
  { id: 'status', header: 'Status', cell: (quote) => <StatusBadge status={quote.status ?? 'draft'} />, phone: true },
  createdColumn(),
  {
    id: 'expires',
    header: 'Expires',
    cell: (quote) => (quote.expires_at ? formatShortDate(quote.expires_at) : 'No expiry'),
    sort: { key: 'expires_at' },
    className: 'whitespace-nowrap text-muted-foreground',
  },
  totalColumn(),
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, QUOTE_STATUSES, QUOTE_SORTS);
  // Staff are nearly every visitor: their list is read alongside the users row.
  const [{ supabase, profile }, staffList] = await requireUserWith(request, context, (supabase) => loadQuotes(supabase, query));
  const canWrite = canWriteBusiness(profile?.role);
  // The dialog's client picker, read only when the dialog is open.
  const clients = canWrite && url.searchParams.has('new') ? await loadClientChoices(supabase, url) : null;
  return { view: 'staff' as const, canWrite, clients, ...staffList };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, { schema: newQuoteSchema, listPath: LIST, texts: TEXTS, noun: 'quote', write: createQuote, createdToast: quoteCreatedToast });
}

export default function Quotes({ loaderData, actionData }: Route.ComponentProps) {
  return <StaffQuotes loaderData={loaderData} actionData={actionData} />;
}

function StaffQuotes({
  loaderData,
  actionData,
}: {
  loaderData: Extract<Route.ComponentProps['loaderData'], { view: 'staff' }>;
  actionData: Route.ComponentProps['actionData'];
}) {
  const { summary, list, canWrite, clients } = loaderData;
  const conversion = conversionFigure(summary.signed, summary.sent);
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={STATUS_OPTIONS}
      summary={
        <StatGrid label="Quote summary">
          <StatCard label="Total Quotes" value={summary.count.toLocaleString('en-US')} icon={FileText} note="All quotes of your account" />
          <StatCard
            label="Quote Value"
            value={formatMoneySums(summary.byCurrency)}
            icon={Wallet}
            note={summary.byCurrency.length > 1 ? 'Sum of all quote totals, per currency' : 'Sum of all quote totals'}
          />
          <StatCard label="Conversion Rate" value={conversion.value} icon={Percent} note={conversion.note} />
          <StatCard
            label="Avg Quote Value"
            value={summary.count === 0 ? '$0' : formatMoneySums(summary.byCurrency, { pick: 'average' })}
            icon={Calculator}
            note="Mean quote total"
          />
        </StatGrid>
      }
      form={<NewQuoteForm lastResult={actionData?.result} clients={clients} />}
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(quote) => quote.id ?? quote.quote_number ?? ''}
        href={quoteHref}
        phoneLine={(quote) => `${quote.contact_name ?? 'No contact'} · ${formatShortDate(quote.created_at)}`}
      />
    </ListScreen>
  );
}
