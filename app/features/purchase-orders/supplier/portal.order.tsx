// /portal/orders/:id: one purchase order addressed to the signed-in supplier
// (decision 077). Its lines; Confirm while it is sent; Ship (a shipment with
// the carrier's tracking number) while it is sent or confirmed; and the
// tracking number of a shipment not yet delivered, corrected. Plain posts that
// work without JavaScript; every write is the database's function, which
// answers "not found" for an order not addressed to the caller.
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/portal.order';
import { SelectField, TextField, useSchemaForm } from '~/components/form-controls';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { buttonClasses } from '~/components/ui/button';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { CARRIER_LABELS, CARRIER_OPTIONS, WEIGHT_UNIT_OPTIONS, type Carrier } from '~/features/shipments/schema';
import { requireSessionClient, requireUser } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { formatMoney } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { recordId, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { dataWithError } from '~/lib/toast.server';
import { PO_STATUS_LABELS, type PoStatus } from '../schema';
import { SUPPLIER_TEXTS as T } from '../texts';
import { loadSupplierOrder } from './queries.server';
import { shipOrderSchema, supplierActionSchema } from './schema';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.po.po_number, T.title) : pageTitle(T.notFound) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { found } = await requireUserWithRecord({ request, context, params }, T.notFound, loadSupplierOrder);
  return { po: found };
}

export async function action(args: Route.ActionArgs) {
  const supabase = await requireSessionClient(args.request, args.context);
  const id = recordId(args.params.id, T.notFound);
  const page = `/portal/orders/${id}`;
  const [{ profile }, formData] = await Promise.all([requireUser(args.request, args.context), readFormData(args.request)]);
  // The supplier's page: staff work on /purchase-orders/:id, where their own checks apply.
  if (profile?.role !== 'supplier') return data({ error: T.notFound }, { status: 404 });
  const submission = parseWithZod(formData, { schema: supplierActionSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  const form = submission.value;
  const answer =
    form.intent === 'confirm'
      ? await supabase.rpc('confirm_purchase_order', { p_id: id }).single()
      : form.intent === 'ship'
        ? await supabase
            .rpc('ship_purchase_order', {
              p_purchase_order_id: id,
              p_tracking_number: form.tracking_number,
              p_carrier: form.carrier,
              p_weight: form.weight,
              p_weight_unit: form.weight_unit,
            })
            .single()
        : await supabase.rpc('set_shipment_tracking_number', { p_shipment_id: form.shipment_id, p_tracking_number: form.tracking_number, p_carrier: null as unknown as string }).single();
  const { error } = answer;
  if (error) {
    const message = serverMessage(error, T.failed);
    const fieldErrors = error.hint && error.hint !== '' && form.intent === 'ship' ? { [error.hint]: [message] } : undefined;
    return dataWithError(args, { result: submission.reply(fieldErrors ? { fieldErrors } : { formErrors: [message] }) }, message, {
      status: error.code === 'P0002' ? 404 : 400,
    });
  }
  return redirectWithSuccess(page, form.intent === 'confirm' ? T.confirmed : form.intent === 'ship' ? T.shipped : T.trackingSaved);
}

function ShipForm({ action, lastResult }: { action: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(shipOrderSchema, {
    id: 'ship-order',
    lastResult,
    defaultValue: { intent: 'ship', carrier: 'fedex', weight_unit: 'kg' },
  });
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="ship" />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField field={fields.tracking_number} label="Tracking number" />
        <SelectField field={fields.carrier} label="Carrier" options={CARRIER_OPTIONS} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField field={fields.weight} label="Weight" type="number" step="0.001" min="0" inputMode="decimal" />
        <SelectField field={fields.weight_unit} label="Unit" options={WEIGHT_UNIT_OPTIONS} />
      </div>
      <SubmitButton intent="ship" label="Add shipment" busyLabel="Saving..." className="justify-self-end" />
    </Form>
  );
}

export default function SupplierOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { po } = loaderData;
  const page = `/portal/orders/${po.id}`;
  const status = po.status as PoStatus;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const error = actionData && 'result' in actionData ? actionData.result.error?.[''] : undefined;
  return (
    <div className="grid gap-4">
      <Link to="/portal/orders" className="text-sm underline underline-offset-2">
        {T.back}
      </Link>
      <PageHeader title={po.po_number} description={`${formatMoney(Number(po.total), po.currency)}${po.expected_on ? ` · Expected ${formatShortDate(po.expected_on)}` : ''}`} />
      <div className="flex flex-wrap items-center gap-3">
        <StatusBadge status={PO_STATUS_LABELS[status] ?? po.status} />
        <a href={`/purchase-orders/${po.id}/pdf`} download className={buttonClasses('outline')}>
          Download PDF
        </a>
        {status === 'sent' ? (
          <Form method="post" action={page}>
            <input type="hidden" name="intent" value="confirm" />
            <SubmitButton intent="confirm" label="Confirm order" busyLabel="Saving..." />
          </Form>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error.join(' ')}
        </p>
      ) : null}
      <Card>
        <CardHeader className="pb-3">
          <SectionHeading id="supplier-lines">Line items</SectionHeading>
        </CardHeader>
        <CardContent>
          <table aria-labelledby="supplier-lines" className="w-full text-sm">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th className="py-1 font-medium">Description</th>
                <th className="py-1 text-right font-medium">Qty</th>
                <th className="py-1 text-right font-medium">Unit price</th>
                <th className="py-1 text-right font-medium">Amount</th>
              </tr>
            </thead>
            <tbody>
              {po.items.map((item) => (
                <tr key={item.id} className="border-t">
                  <td className="py-1.5">{item.description}</td>
                  <td className="py-1.5 text-right">{item.qty}</td>
                  <td className="py-1.5 text-right">{formatMoney(Number(item.unit_price), po.currency)}</td>
                  <td className="py-1.5 text-right">{formatMoney(Number(item.total), po.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {po.notes ? <p className="mt-3 whitespace-pre-line text-sm text-muted-foreground">{po.notes}</p> : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="pb-3">
          <SectionHeading id="supplier-shipments">Shipments</SectionHeading>
        </CardHeader>
        <CardContent className="grid gap-4">
          {po.shipments.length === 0 ? <p className="text-sm text-muted-foreground">No shipments yet.</p> : null}
          <ul aria-labelledby="supplier-shipments" className="grid gap-3">
            {po.shipments.map((shipment) => (
              <li key={shipment.id} className="grid gap-2 rounded-md border p-3 text-sm">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{shipment.tracking_number}</span>
                  <span className="text-muted-foreground">{CARRIER_LABELS[shipment.carrier as Carrier] ?? shipment.carrier}</span>
                  <StatusBadge status={shipment.status} />
                </span>
                {shipment.status !== 'Delivered' ? (
                  <Form method="post" action={page} className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="intent" value="tracking" />
                    <input type="hidden" name="shipment_id" value={shipment.id} />
                    <label className="grid gap-1">
                      <span className="text-xs text-muted-foreground">Tracking number of {shipment.tracking_number}</span>
                      <Input name="tracking_number" defaultValue={shipment.tracking_number} required pattern="[A-Za-z0-9\-]{4,40}" className="w-56" />
                    </label>
                    <SubmitButton intent="tracking" label="Save tracking number" busyLabel="Saving..." variant="outline" />
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
          {status === 'sent' || status === 'confirmed' ? (
            <div className="grid gap-2 border-t pt-4">
              <SectionHeading>Ship this order</SectionHeading>
              <ShipForm action={page} lastResult={lastResult} />
            </div>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
