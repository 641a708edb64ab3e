// /portal/invoices: the invoices sent to the client (never a draft), each with
// its balance due, the payments received and its PDF.
import type { Route } from './+types/portal.invoices';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { methodLabel } from '~/features/invoices/schema';
import { PdfLink, PortalList } from './portal-parts';
import { loadPortalInvoices, type PortalInvoice } from './queries.server';
import { PORTAL_TEXTS as T } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(T.invoicesTitle) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const [, list] = await requireUserWith(request, context, (supabase) => loadPortalInvoices(supabase, url));
  return { list };
}

export default function PortalInvoices({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <PortalList
      title={T.invoicesTitle}
      description={T.invoicesDescription}
      list={list}
      texts={{ empty: T.invoicesEmpty, loadFailed: T.invoicesFailed }}
      pathname="/portal/invoices"
      noun="invoices"
    >
      {list.rows.map((invoice) => (
        <InvoiceItem key={invoice.id} invoice={invoice} />
      ))}
    </PortalList>
  );
}

function InvoiceItem({ invoice }: { invoice: PortalInvoice }) {
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const number = invoice.invoice_number ?? 'Invoice';
  // A void invoice is owed nothing, whatever it said.
  const balance = invoice.status === 'void' ? 0 : Number(invoice.total) - Number(invoice.amount_paid);
  const payments = [...(invoice.payments ?? [])].sort((a, b) => a.paid_on.localeCompare(b.paid_on));
  const headingId = `invoice-${invoice.id}`;
  return (
    <li className="grid gap-3 py-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid min-w-0 gap-1">
          <h2 id={headingId} className="font-medium">{number}</h2>
          <p className="text-xs text-muted-foreground">
            Sent {formatShortDate(invoice.sent_at)} · Due {formatShortDate(invoice.due_date)}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <StatusBadge status={invoice.status} />
          <PdfLink href={`/invoices/${invoice.id}/pdf`} label={number} />
        </div>
      </div>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm sm:max-w-sm">
        <dt className="text-muted-foreground">Total</dt>
        <dd className="text-right">{money(Number(invoice.total))}</dd>
        <dt className="text-muted-foreground">Paid</dt>
        <dd className="text-right">{money(Number(invoice.amount_paid))}</dd>
        <dt className="font-semibold">{T.balanceDue}</dt>
        <dd className="text-right font-semibold" data-testid="balance">{money(balance)}</dd>
      </dl>
      {payments.length === 0 ? (
        <p className="text-sm text-muted-foreground">{T.noPayments}</p>
      ) : (
        <ul aria-label={`Payments of ${number}`} className="grid gap-1 text-sm sm:max-w-sm">
          {payments.map((payment) => (
            <li key={payment.id} className="flex flex-wrap justify-between gap-2">
              <span>
                {formatShortDate(payment.paid_on)} · {payment.kind === 'credit' ? T.creditOnVoid : methodLabel(payment.method)}
              </span>
              <span className="font-medium">
                {payment.kind === 'credit' ? `−${money(-Number(payment.amount))}` : money(Number(payment.amount))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
