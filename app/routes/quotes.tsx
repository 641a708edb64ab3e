import { useLocation } from 'react-router';
import { FileText, Percent, Wallet, Calculator } from 'lucide-react';
import type { Route } from './+types/quotes';
import { ListPager } from '~/components/list-pager';
import { ListEmpty, ListRegion } from '~/components/list-states';
import { ListToolbar } from '~/components/list-toolbar';
import { MyQuotes } from '~/components/my-quotes';
import { NewQuoteForm } from '~/components/new-quote-form';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { requireUser } from '~/lib/auth.server';
import type { Tables } from '~/lib/database.types';
import { canWriteBusiness, isExternal } from '~/lib/roles';
import { loadSharedQuotes, type SharedQuote } from '~/lib/shared-quotes.server';
import { listHref, readListQuery, searchText, withDialog } from '~/lib/list-query';
import { createRecord, filterList, readList } from '~/lib/records.server';
import { formatMoney } from '~/lib/money';
import { formatShortDate } from '~/lib/relative-time';
import { newQuoteSchema, QUOTE_STATUSES } from '~/lib/schemas/quotes';
import { CreateLink } from '~/components/create-link';

/** A row of the staff's list: what a client sees of a quote, and its contact. */
type QuoteRow = SharedQuote & Pick<Tables<'quote_list'>, 'contact_name' | 'contact_company'>;

const STATUS_OPTIONS = QUOTE_STATUSES.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));
const LIST_COLUMNS = 'id, quote_number, status, currency, total, created_at, expires_at, contact_name, contact_company';

export const meta: Route.MetaFunction = () => [{ title: 'Quotes' }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { supabase, profile } = await requireUser(request, context);
  // A client sees the quotes addressed to them, and nothing of the pipeline.
  if (isExternal(profile?.role)) return { view: 'shared' as const, ...(await loadSharedQuotes(supabase, url)) };
  const query = readListQuery(url, QUOTE_STATUSES);
  const search = searchText(query.q);

  // A page of rows, newest first, plus one to know whether there is a next page.
  // A text search (number, notes, contact name or company) goes through
  // search_quotes, which reads only the account's matches from its indexes,
  // and counts them; the unfiltered total comes from the summary.
  const matching = search
    ? supabase.rpc('search_quotes', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('quote_list').select(LIST_COLUMNS);
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('quote_summary').single(),
    readList(filterList(matching, query), query, 'quotes'),
  ]);
  if (summaryResult.error) console.error(`quote summary failed to load: ${summaryResult.error.message}`);

  const summary = summaryResult.data ?? { total_count: 0, total_value: 0, average_value: 0 };
  const unfiltered = !search && !query.status;
  return {
    view: 'staff' as const,
    canWrite: canWriteBusiness(profile?.role),
    query,
    summary: { count: Number(summary.total_count), value: Number(summary.total_value), average: Number(summary.average_value) },
    // The search counts its matches; a status filter alone is not counted.
    list: { ...list, total: unfiltered ? Number(summary.total_count) : list.total },
  };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, {
    schema: newQuoteSchema,
    listPath: '/quotes',
    texts: { created: 'Quote created successfully!', createFailed: 'Failed to create quote' },
    noun: 'quote',
    // One RPC, one transaction: the contact, the draft quote and its line item
    // are written together or not at all (the account is the caller's).
    write: (supabase, _accountId, quote) =>
      supabase.rpc('create_quote', {
        p_contact_name: quote.contact_name,
        p_contact_email: quote.contact_email,
        p_company: quote.company,
        p_description: quote.description,
        p_unit_price: quote.unit_price,
        p_quantity: quote.quantity,
        p_currency: quote.currency,
        p_expires_in_days: quote.expires_in_days,
        // Left out when empty: the function's default is null.
        p_notes: quote.notes,
      }),
  });
}

export default function Quotes({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.view === 'shared') return <MyQuotes list={loaderData.list} />;
  return <StaffQuotes loaderData={loaderData} actionData={actionData} />;
}

function StaffQuotes({
  loaderData,
  actionData,
}: {
  loaderData: Extract<Route.ComponentProps['loaderData'], { view: 'staff' }>;
  actionData: Route.ComponentProps['actionData'];
}) {
  const { query, summary, list, canWrite } = loaderData;
  const { rows: quotes, failed } = list;
  const location = useLocation();
  const dialogOpen = canWrite && new URLSearchParams(location.search).has('new');
  const filtered = query.q !== '' || query.status !== null;

  return (
    <>
      <PageHeader
        title="Quotes"
        description="Create, send and track quotes for your clients."
        actions={
          canWrite ? (
            <CreateLink to={withDialog(listHref('/quotes', query, {}))}>New Quote</CreateLink>
          ) : null
        }
      />
      <StatGrid label="Quote summary">
        <StatCard label="Total Quotes" value={summary.count.toLocaleString('en-US')} icon={FileText} note="All quotes of your account" />
        <StatCard label="Quote Value" value={formatMoney(summary.value, 'USD')} icon={Wallet} note="Sum of all quote totals" />
        <StatCard label="Conversion Rate" value="0%" icon={Percent} note="No conversions yet" />
        <StatCard
          label="Avg Quote Value"
          value={summary.count === 0 ? '$0' : formatMoney(summary.average, 'USD')}
          icon={Calculator}
          note="Mean quote total"
        />
      </StatGrid>

      <Card>
        <CardHeader className="gap-4">
          <SectionHeading>Recent Quotes</SectionHeading>
          <ListToolbar pathname="/quotes" q={query.q} status={query.status} statuses={STATUS_OPTIONS} searchLabel="Search quotes" />
        </CardHeader>
        <CardContent>
          <ListRegion label="Recent Quotes">
            {failed ? (
              <p role="alert" className="py-10 text-center text-sm text-destructive">
                Failed to fetch quotes
              </p>
            ) : quotes.length === 0 ? (
              <ListEmpty>
                {filtered ? 'No quotes match your search.' : 'No quotes yet. Create your first quote to get started!'}
              </ListEmpty>
            ) : (
              <ul className="divide-y divide-border">
                {quotes.map((quote) => (
                  <QuoteItem key={quote.id} quote={quote} />
                ))}
              </ul>
            )}
            <ListPager list={list} pathname="/quotes" noun="quotes" />
          </ListRegion>
        </CardContent>
      </Card>

      <UrlDialog
        open={dialogOpen}
        closeTo={listHref('/quotes', query, {})}
        title="Create New Quote"
        description="A draft quote with one line item for a new contact."
      >
        <NewQuoteForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function QuoteItem({ quote }: { quote: QuoteRow }) {
  const number = quote.quote_number ?? 'Draft Quote';
  const contact = quote.contact_name ? `${quote.contact_name} - ${quote.contact_company ?? ''}` : 'No contact';
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid gap-1">
        <p className="font-medium">{number}</p>
        <p className="text-sm text-muted-foreground">{contact}</p>
        <p className="text-xs text-muted-foreground">
          Created {formatShortDate(quote.created_at)} · {quote.expires_at ? `Expires ${formatShortDate(quote.expires_at)}` : 'No expiry'}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-semibold">{formatMoney(Number(quote.total), quote.currency ?? 'USD')}</span>
        <StatusBadge status={quote.status ?? 'draft'} />
        {/* As docs/product-guide.md says: View and Edit do nothing yet. */}
        <Button type="button" variant="outline" size="sm" aria-label={`View ${number}`}>
          View
        </Button>
        <Button type="button" variant="outline" size="sm" aria-label={`Edit ${number}`}>
          Edit
        </Button>
      </div>
    </li>
  );
}
