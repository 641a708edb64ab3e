import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { CheckCircle2, Clock, Download, Eye, FileText, TrendingUp } from 'lucide-react';
import { Form, useSearchParams } from 'react-router';
import type { Route } from './+types/invoices';
import { InertButton } from '~/components/inert-button';
import { PreviewBanner, SampleBadge } from '~/components/preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatMoney } from '~/lib/money';
import { formatShortDate } from '~/lib/dates';
import { INVOICE_SUMMARY, SAMPLE_INVOICES, type SampleInvoice } from '~/lib/samples/invoices';
import { DEFAULT_INVOICE_CURRENCY, DEFAULT_INVOICE_QUANTITY, INVOICE_CURRENCY_OPTIONS, newInvoiceSchema } from '~/lib/schemas/invoices';
import { SIMULATED_ACTIONS } from '~/lib/simulated';
import { simulatedCreate } from '~/lib/simulated.server';
import { BRAND_NAME } from '~/lib/site';
import { CreateLink } from '~/components/create-link';

const LIST_PATH = '/invoices';

export const meta: Route.MetaFunction = () => [{ title: `Invoices — ${BRAND_NAME}` }];

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, { action: 'invoice', schema: newInvoiceSchema, listPath: LIST_PATH });
}

export default function Invoices({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="Invoices"
        description="Create, send and track invoices and payments."
        actions={
          <CreateLink to="?new">New Invoice</CreateLink>
        }
      />
      <StatGrid label="Invoice summary">
        <StatCard
          label="Outstanding"
          value={formatMoney(INVOICE_SUMMARY.outstandingCents)}
          note={INVOICE_SUMMARY.outstandingNote}
          icon={Clock}
        />
        <StatCard
          label="Paid This Month"
          value={formatMoney(INVOICE_SUMMARY.paidThisMonthCents)}
          note={INVOICE_SUMMARY.paidThisMonthNote}
          icon={CheckCircle2}
        />
        <StatCard
          label="Total Invoices"
          value={INVOICE_SUMMARY.totalInvoices}
          note={INVOICE_SUMMARY.totalInvoicesNote}
          icon={FileText}
        />
        <StatCard
          label="Collection Rate"
          value={INVOICE_SUMMARY.collectionRate}
          note={INVOICE_SUMMARY.collectionRateNote}
          icon={TrendingUp}
        />
      </StatGrid>
      <Card>
        <CardHeader>
          <SectionHeading>Recent Invoices</SectionHeading>
          <p className="text-sm text-muted-foreground">Sample invoices of this demonstration screen.</p>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4">
            {SAMPLE_INVOICES.map((invoice) => (
              <InvoiceRow key={invoice.id} invoice={invoice} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <UrlDialog
        open={searchParams.has('new')}
        closeTo={LIST_PATH}
        title="Create New Invoice"
        description="Bill a client for work done. All fields marked required must be filled in."
      >
        <NewInvoiceForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function InvoiceRow({ invoice }: { invoice: SampleInvoice }) {
  return (
    <li className="flex flex-col gap-4 rounded-lg border border-border p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold">{invoice.invoiceNumber}</h3>
          <SampleBadge />
          <StatusBadge status={invoice.status} />
        </div>
        <p className="text-sm">{invoice.clientName}</p>
        <p className="text-sm text-muted-foreground">{invoice.clientEmail}</p>
        <p className="text-sm text-muted-foreground">{invoice.description}</p>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <div className="flex gap-1">
            <dt>Created:</dt>
            <dd>{formatShortDate(invoice.createdAt)}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Due:</dt>
            <dd>{formatShortDate(invoice.dueDate)}</dd>
          </div>
        </dl>
      </div>
      <div className="flex flex-col items-start gap-2 sm:items-end">
        <p className="text-lg font-bold">{formatMoney(invoice.amount, invoice.currency)}</p>
        <div className="flex gap-2">
          <InertButton variant="outline" size="sm">
            <Download className="size-4" aria-hidden="true" />
            Download
          </InertButton>
          <InertButton variant="outline" size="sm">
            <Eye className="size-4" aria-hidden="true" />
            View
          </InertButton>
        </div>
      </div>
    </li>
  );
}

function NewInvoiceForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(newInvoiceSchema, {
    id: 'new-invoice',
    lastResult,
    defaultValue: { quantity: String(DEFAULT_INVOICE_QUANTITY), currency: DEFAULT_INVOICE_CURRENCY },
  });
  const texts = SIMULATED_ACTIONS.invoice;
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.client_name} label="Client name" autoComplete="organization" />
        <TextField field={fields.client_email} label="Client email" type="email" autoComplete="email" />
      </div>
      <TextareaField field={fields.description} label="Description" rows={2} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField field={fields.unit_price} label="Unit price" type="number" step="0.01" min="0" inputMode="decimal" />
        <TextField field={fields.quantity} label="Quantity" type="number" step="1" min="1" />
        <SelectField field={fields.currency} label="Currency" options={INVOICE_CURRENCY_OPTIONS} />
      </div>
      <TextField field={fields.due_date} label="Due date" type="date" />
      <TextareaField field={fields.notes} label="Notes (optional)" rows={2} />
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Create Invoice" busyLabel={texts.busyLabel} />
      </DialogActions>
    </Form>
  );
}
