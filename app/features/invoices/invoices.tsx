// The Invoices screen (docs/product-guide.md's /invoices, real: decision 029): the
// account's invoice book, searched, filtered and paged by URL, its four cards
// from SQL, and the New Invoice dialog at ?new creating a real draft.
import { createdColumn, totalColumn } from '~/components/records/columns';
import { CheckCircle2, Clock, FileText, TrendingUp } from '~/components/icons';
import type { Route } from './+types/invoices';
import { ListScreen } from '~/components/list-screen';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery, statusOptions } from '~/lib/list-query';
import { formatMoneySums, MONEY_SUM_SEPARATOR } from '~/lib/money';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { NewInvoiceForm } from './new-invoice-form';
import { createInvoice, loadInvoices, type Collection, type InvoiceRow } from './queries.server';
import { INVOICE_STATUSES, newInvoiceSchema, PAST_DUE_DATE_MESSAGE } from './schema';
import { invoiceCreatedToast, INVOICE_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const LIST = '/invoices';
const STATUS_OPTIONS = statusOptions(INVOICE_STATUSES);
/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const INVOICE_SORTS = ['invoice_number', 'client_name', 'total', 'due_date', 'created_at'] as const;

const COLUMNS: RecordColumn<InvoiceRow>[] = [
  { id: 'number', header: 'Number', cell: (invoice) => invoice.invoice_number ?? 'Invoice', sort: { key: 'invoice_number', first: 'desc' } },
  { id: 'client', header: 'Client', cell: (invoice) => invoice.client_name, sort: { key: 'client_name' }, className: 'max-w-48 truncate' },
  { id: 'email', header: 'Email', cell: (invoice) => invoice.client_email, className: 'max-w-56 truncate text-muted-foreground' },
  { id: 'status', header: 'Status', cell: (invoice) => <StatusBadge status={invoice.status} />, phone: true },
  createdColumn(),
  {
    id: 'due',
    header: 'Due',
    cell: (invoice) => formatShortDate(invoice.due_date),
    sort: { key: 'due_date' },
    className: 'whitespace-nowrap text-muted-foreground',
  },
  totalColumn(),
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, INVOICE_STATUSES, INVOICE_SORTS);
  const [{ profile }, found] = await requireUserWith(request, context, (supabase) => loadInvoices(supabase, query));
  return { canWrite: canWriteBusiness(profile?.role), ...found };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, {
    schema: newInvoiceSchema,
    listPath: LIST,
    texts: TEXTS,
    noun: 'invoice',
    write: createInvoice,
    createdToast: invoiceCreatedToast,
    // Past in the account's time zone: the form's own check allows for every zone.
    fieldOfError: { [PAST_DUE_DATE_MESSAGE]: 'due_date' },
  });
}

/** Paid ÷ invoiced, per currency: '94%', or 'USD 94% · EUR 50%'; '—' when nothing was invoiced. */
export function collectionRate(collection: readonly Collection[]): string {
  const rates = collection.filter((c) => c.invoiced > 0).map((c) => ({ currency: c.currency, rate: `${Math.round((c.paid / c.invoiced) * 100)}%` }));
  if (rates.length === 0) return '—';
  if (rates.length === 1) return rates[0].rate;
  return rates.map((r) => `${r.currency} ${r.rate}`).join(MONEY_SUM_SEPARATOR);
}

export default function Invoices({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, list, canWrite } = loaderData;
  const open = summary.outstanding.reduce((n, sum) => n + sum.count, 0);
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={STATUS_OPTIONS}
      summary={
        <StatGrid label="Invoice summary">
          <StatCard
            label="Outstanding"
            value={formatMoneySums(summary.outstanding)}
            note={`${open.toLocaleString('en-US')} ${open === 1 ? 'invoice' : 'invoices'} awaiting payment`}
            icon={Clock}
          />
          <StatCard label="Paid This Month" value={formatMoneySums(summary.paidThisMonth)} note="Payments dated this month" icon={CheckCircle2} />
          <StatCard label="Total Invoices" value={summary.count.toLocaleString('en-US')} note="All invoices of your account" icon={FileText} />
          <StatCard label="Collection Rate" value={collectionRate(summary.collection)} note="Paid of invoiced, last 90 days" icon={TrendingUp} />
        </StatGrid>
      }
      form={<NewInvoiceForm lastResult={actionData?.result} />}
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(invoice) => invoice.id}
        href={(invoice) => `/invoices/${invoice.id}`}
        phoneLine={(invoice) => `${invoice.client_name} · Due ${formatShortDate(invoice.due_date)}`}
      />
    </ListScreen>
  );
}
