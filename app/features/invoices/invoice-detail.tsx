// An invoice's page (/invoices/:id): its fields, items, totals, payments and
// balance, and the actions its status allows: Edit (a draft, at
// /invoices/:id/edit), Send (a mail with the public link, through the jobs
// runner), Resend and Copy client link once sent (the new link shown on the
// page), Record payment, Void (confirmed at ?void), Download (the PDF). Its history is its audit rows. Any id that is not an
// invoice of the caller's account is a 404.
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/invoice-detail';
import { LineItemsTable } from '~/components/records/line-items-table';
import { FactsPanel, Truncated, type Fact } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline, type Moment } from '~/components/records/timeline';
import { SectionHeading } from '~/components/page-header';
import { ConfirmDialog } from '~/components/settings/confirm-dialog';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { kickJobRunner } from '~/jobs/kick.server';
import { formatShortDate } from '~/lib/dates';
import { HIDDEN_FIELDS, readFormData } from '~/lib/forms.server';
import { centsToInput, formatMoney } from '~/lib/money';
import { recordNotFound, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, refuseWrite } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithSuccess } from '~/lib/toast.server';
import { ClientLinkActions } from '~/features/client-links/client-link-actions';
import { CopyableLink } from '~/components/copyable-link';
import { renewClientLink, resendRecord } from '~/features/client-links/client-links.server';
import { CLIENT_LINK_TEXTS } from '~/features/client-links/texts';
import { PaymentForm } from './payment-form';
import { loadInvoice, recordPayment, sendInvoice, voidInvoice, type InvoiceDetail } from './queries.server';
import { invoiceActionSchema, methodLabel } from './schema';
import { INVOICE_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.invoice.invoice_number ?? 'Invoice', 'Invoices') : pageTitle(TEXTS.notFound) },
];

const CLOSED = ['void', 'paid'];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadInvoice);
  const canWrite = canWriteBusiness(profile?.role);
  const open = !CLOSED.includes(found.invoice.status);
  // requestId names this render's Resend press (the job's idempotency key): a double post sends one mail.
  return { ...found, canWrite, voidOpen: canWrite && open && url.searchParams.has('void'), requestId: crypto.randomUUID() };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/invoices', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const submission = parseWithZod(await readFormData(args.request), { schema: invoiceActionSchema });
    // The payment's currency and Resend's request id are hidden fields the page fills in: any other value was not typed by a person.
    if (submission.status !== 'success') return refuseSubmission(args, submission, { hiddenFields: [...HIDDEN_FIELDS, 'currency', 'request'] });
    const form = submission.value;
    const refuse = (error: { message?: string; code?: string } | null, inForm = false) => {
      // Another account's invoice, or none: the page's 404, whatever was posted.
      if (error?.code === 'P0002') throw recordNotFound(TEXTS.notFound);
      return refuseWrite(args, submission, error, TEXTS.actionFailed, { inForm });
    };

    if (form.intent === 'pay') {
      const { error } = await recordPayment(supabase, id, form);
      // A date or amount the invoice does not take: said in the form, which keeps what was typed.
      if (error) return refuse(error, true);
      return redirectWithSuccess(page, TEXTS.paymentRecorded);
    }
    if (form.intent === 'void') {
      const { error } = await voidInvoice(supabase, id);
      if (error) return refuse(error);
      return redirectWithSuccess(page, TEXTS.voided);
    }
    if (form.intent === 'resend') {
      const { data: email, error } = await resendRecord(supabase, 'invoice', id, form.request);
      if (error || !email) return refuse(error);
      kickJobRunner(args.context);
      return redirectWithSuccess(page, CLIENT_LINK_TEXTS.resent(email));
    }
    if (form.intent === 'copy_link') {
      // Not a redirect: the link is shown once, in this answer, and kept in no cookie or URL.
      const { link, error } = await renewClientLink(supabase, 'invoice', id);
      if (!link) return refuse(error);
      return dataWithSuccess(args, { clientLink: link }, CLIENT_LINK_TEXTS.linkMade, { headers: { 'Cache-Control': 'private, no-store' } });
    }
    const { data: sent, error } = await sendInvoice(supabase, id);
    if (error || !sent) return refuse(error);
    // The mail leaves through the jobs runner: kicked now, after the response.
    kickJobRunner(args.context);
    return redirectWithSuccess(page, TEXTS.sentTo(sent.client_email));
  });
}

export default function InvoicePage({ loaderData, actionData }: Route.ComponentProps) {
  const { invoice, items, payments, history, today, canWrite, voidOpen, requestId } = loaderData;
  const clientLink = actionData && 'clientLink' in actionData ? actionData.clientLink : null;
  const page = `/invoices/${invoice.id}`;
  const balance = Number(invoice.total) - Number(invoice.amount_paid);
  const open = !CLOSED.includes(invoice.status);
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const money = (cents: number | string) => formatMoney(Number(cents), invoice.currency);
  return (
    <RecordPage
      back={{ to: '/invoices', label: TEXTS.back }}
      title={invoice.invoice_number ?? 'Invoice'}
      status={<StatusBadge status={invoice.status} />}
      subtitle={invoice.client_name}
      actions={
        <>
          <a href={`${page}/pdf`} className={buttonClasses('outline')}>
            Download
          </a>
          {/* EN 16931 e-invoices (decision 049): the PDF with its XML, and the Peppol UBL file. */}
          <a href={`${page}/facturx.pdf`} className={buttonClasses('outline')} title="PDF with the e-invoice attached (EN 16931)">
            Factur-X
          </a>
          <a href={`${page}/einvoice.xml?format=ubl`} className={buttonClasses('outline')} title="Peppol BIS Billing 3.0 e-invoice">
            UBL
          </a>
          {canWrite && invoice.status === 'draft' ? (
            <Link to={`${page}/edit`} className={buttonClasses('outline')}>
              Edit
            </Link>
          ) : null}
          {canWrite && open ? (
            <>
              {invoice.status === 'draft' ? (
                <Form method="post" action={page}>
                  <input type="hidden" name="intent" value="send" />
                  <SubmitButton intent="send" label="Send" busyLabel="Sending..." />
                </Form>
              ) : (
                <ClientLinkActions page={page} requestId={requestId} />
              )}
              <Link to="?void" preventScrollReset className={buttonClasses('ghost')}>
                Void
              </Link>
            </>
          ) : null}
        </>
      }
      notices={clientLink ? <CopyableLink id="client-link" label={CLIENT_LINK_TEXTS.fieldLabel} note={CLIENT_LINK_TEXTS.fieldNote} link={clientLink} className="mb-6 rounded-md border border-border p-3" /> : null}
      facts={
        <>
          <FactsPanel facts={invoiceFacts(invoice)} />
          <Card>
            <CardHeader>
              <SectionHeading id="invoice-payments">Payments</SectionHeading>
            </CardHeader>
            <CardContent className="grid gap-4">
              {payments.length === 0 ? (
                <p className="text-sm text-muted-foreground">{TEXTS.noPayments}</p>
              ) : (
                <ul aria-labelledby="invoice-payments" className="grid divide-y divide-border">
                  {payments.map((payment) =>
                    // Voiding a partly paid invoice credits back what it received (decision 043).
                    payment.kind === 'credit' ? (
                      <li key={payment.id} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                        <span>
                          {formatShortDate(payment.paid_on)} · {TEXTS.creditOnVoid}
                        </span>
                        <span className="font-medium">−{money(-Number(payment.amount))}</span>
                      </li>
                    ) : (
                      <li key={payment.id} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                        <span className="min-w-0 [overflow-wrap:anywhere]">
                          {formatShortDate(payment.paid_on)} · {methodLabel(payment.method)}
                          {payment.reference ? ` · ${payment.reference}` : ''}
                        </span>
                        <span className="font-medium">{money(payment.amount)}</span>
                      </li>
                    ),
                  )}
                </ul>
              )}
              {/* A draft is paid once it was sent: the database refuses a payment before. */}
              {canWrite && open && invoice.status !== 'draft' && balance > 0 ? (
                <div className="grid gap-3 border-t border-border pt-4">
                  <h3 className="font-medium">Record payment</h3>
                  {/* Keyed by what was paid: after a payment the form starts again at the new balance. */}
                  <PaymentForm key={String(invoice.amount_paid)} action={page} currency={invoice.currency} balance={centsToInput(balance, invoice.currency)} today={today} lastResult={lastResult} />
                </div>
              ) : null}
            </CardContent>
          </Card>
        </>
      }
      dialogs={
        <ConfirmDialog
          open={voidOpen}
          closeTo={page}
          title={TEXTS.voidTitle}
          description={
            Number(invoice.amount_paid) > 0
              ? `Void ${invoice.invoice_number}? It stays in the book, marked void, and can no longer be paid or sent. The ${money(invoice.amount_paid)} paid is credited back.`
              : `Void ${invoice.invoice_number}? It stays in the book, marked void, and can no longer be paid or sent.`
          }
          intent="void"
          fields={{}}
          confirmLabel="Void invoice"
          busyLabel="Voiding..."
          focusCancel
        />
      }
    >
      <Card>
        <CardHeader>
          <SectionHeading id="invoice-items">Items</SectionHeading>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          <LineItemsTable items={items} currency={invoice.currency} labelledBy="invoice-items" />
          <dl className="ml-auto mt-4 grid max-w-xs grid-cols-2 gap-y-1 text-sm tabular-nums">
            <dt>Subtotal</dt>
            <dd className="text-right">{money(invoice.subtotal)}</dd>
            {Number(invoice.discount_amount) > 0 ? (
              <>
                <dt>Discount ({invoice.discount}%)</dt>
                <dd className="text-right">−{money(invoice.discount_amount)}</dd>
              </>
            ) : null}
            <dt>Tax ({invoice.tax_rate}%)</dt>
            <dd className="text-right">{money(invoice.tax)}</dd>
            <dt className="font-semibold">Total</dt>
            <dd className="text-right font-semibold">{money(invoice.total)}</dd>
            <dt>Paid</dt>
            <dd className="text-right">{money(invoice.amount_paid)}</dd>
            <dt className="font-semibold">Balance due</dt>
            <dd className="text-right font-semibold" data-testid="balance">{money(balance)}</dd>
          </dl>
        </CardContent>
      </Card>
      <Timeline moments={invoiceMoments(invoice)} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}

/** The invoice's lifecycle, from its columns; the audit rows that tell the same moment (with who) win. */
function invoiceMoments(invoice: InvoiceDetail): Moment[] {
  return [
    { label: 'Created', at: invoice.created_at, covers: ['invoice_created'] },
    { label: 'Sent', at: invoice.sent_at, covers: ['invoice_sent'] },
    { label: 'Paid', at: invoice.paid_at, covers: ['invoice_paid'] },
  ];
}

function invoiceFacts(invoice: InvoiceDetail): Fact[] {
  return [
    { label: 'Client', value: invoice.client_name },
    { label: 'Email', value: invoice.client_email ? <Truncated>{invoice.client_email}</Truncated> : null },
    { label: 'Currency', value: invoice.currency },
    { label: 'Due date', value: formatShortDate(invoice.due_date) },
    { label: 'Notes', value: invoice.notes ? <span className="whitespace-pre-line">{invoice.notes}</span> : null },
    // Made from a document (decision 033): the way back to it.
    {
      label: 'Made from',
      value: invoice.source_document_id ? (
        <Link to={`/documents/${invoice.source_document_id}`} className="underline underline-offset-2">
          The document
        </Link>
      ) : null,
    },
  ];
}
