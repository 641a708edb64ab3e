// The Invoices screen (docs/product-guide.md's /invoices, real: decision 029): the
// account's invoice book, searched, filtered and paged by URL, its four cards
// from SQL, and the New Invoice dialog at ?new creating a real draft.
import { CheckCircle2, Clock, Download, Eye, FileText, TrendingUp } from '~/components/icons';
import { Link } from 'react-router';
import type { Route } from './+types/invoices';
import { ListScreen } from '~/components/list-screen';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery, statusOptions } from '~/lib/list-query';
import { formatMoney, formatMoneySums, MONEY_SUM_SEPARATOR } from '~/lib/money';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { BRAND_NAME } from '~/lib/site';
import { NewInvoiceForm } from './new-invoice-form';
import { createInvoice, loadInvoices, type Collection, type InvoiceRow } from './queries.server';
import { INVOICE_STATUSES, newInvoiceSchema, PAST_DUE_DATE_MESSAGE } from './schema';
import { invoiceCreatedToast, INVOICE_TEXTS as TEXTS } from './texts';

const LIST = '/invoices';
const STATUS_OPTIONS = statusOptions(INVOICE_STATUSES);

export const meta: Route.MetaFunction = () => [{ title: `${TEXTS.title} — ${BRAND_NAME}` }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, INVOICE_STATUSES);
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
      {list.rows.map((invoice) => (
        <InvoiceItem key={invoice.id} invoice={invoice} />
      ))}
    </ListScreen>
  );
}

function InvoiceItem({ invoice }: { invoice: InvoiceRow }) {
  const number = invoice.invoice_number ?? 'Invoice';
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid gap-1">
        <p className="font-medium">
          <Link to={`/invoices/${invoice.id}`} className="underline-offset-2 hover:underline">
            {number}
          </Link>
        </p>
        <p className="text-sm">{invoice.client_name}</p>
        <p className="text-sm text-muted-foreground">{invoice.client_email}</p>
        <p className="text-xs text-muted-foreground">
          Created {formatShortDate(invoice.created_at)} · Due {formatShortDate(invoice.due_date)}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-semibold">{formatMoney(Number(invoice.total), invoice.currency)}</span>
        <StatusBadge status={invoice.status} />
        <a href={`/invoices/${invoice.id}/pdf`} className={buttonClasses('outline', 'sm')} aria-label={`Download ${number}`}>
          <Download className="size-4" aria-hidden="true" />
          Download
        </a>
        <Link to={`/invoices/${invoice.id}`} className={buttonClasses('outline', 'sm')} aria-label={`View ${number}`}>
          <Eye className="size-4" aria-hidden="true" />
          View
        </Link>
      </div>
    </li>
  );
}
