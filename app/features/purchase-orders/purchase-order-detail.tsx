// A purchase order's page (issue 36): its lines with what arrived so far, the
// shipments received against it, and Send, Confirm, Receive (all outstanding,
// or a part per line) and Cancel, each a plain post that works without
// JavaScript and goes through the database's functions; the history below.
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/purchase-order-detail';
import { SectionHeading } from '~/components/page-header';
import { FactsPanel } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { formatDateTime, formatShortDate } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { formatMoney } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { kickJobRunner } from '~/jobs/kick.server';
import { changePurchaseOrder, loadPurchaseOrder, receivePurchaseOrder } from './queries.server';
import { PO_STATUS_LABELS, purchaseOrderActionSchema, readReceived, type PoStatus } from './schema';
import { PO_DETAIL_TEXTS as TEXTS } from './texts';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.po.po_number, 'Purchase Orders') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadPurchaseOrder);
  return { ...found, canWrite: canWriteBusiness(profile?.role) };
}

const DONE = { send: TEXTS.sent, confirm: TEXTS.confirmed, cancel: TEXTS.cancelled } as const;

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const { supabase, id, page } = await recordWriter(args, '/purchase-orders', TEXTS.notFound);
    const formData = await readFormData(args.request);
    const submission = parseWithZod(formData, { schema: purchaseOrderActionSchema });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const failed = (error: { code?: string; message?: string } | null) =>
      dataWithError(args, { result: submission.reply({ formErrors: [serverMessage(error, TEXTS.failed)] }) }, serverMessage(error, TEXTS.failed), {
        status: error?.code === 'P0002' ? 404 : 400,
      });
    const intent = submission.value.intent;
    if (intent === 'receive' || intent === 'receive-all') {
      const received = intent === 'receive' ? readReceived(formData) : null;
      if (intent === 'receive' && (received === null || Object.keys(received).length === 0)) {
        return failed({ code: '22023', message: 'Enter what arrived: a whole number of 0 or more on each line' });
      }
      const { error } = await receivePurchaseOrder(supabase, id, received);
      if (error) return failed(error);
      return redirectWithSuccess(page, TEXTS.received);
    }
    const { error } = await changePurchaseOrder(supabase, id, intent);
    if (error) return failed(error);
    // Sent: the po_sent event queued the supplier's mail (with the PDF); it leaves after the response.
    if (intent === 'send') kickJobRunner(args.context);
    return redirectWithSuccess(page, DONE[intent]);
  });
}

function IntentButton({ page, intent, label, variant }: { page: string; intent: string; label: string; variant?: 'outline' | 'destructive' }) {
  return (
    <Form method="post" action={page}>
      <input type="hidden" name="intent" value={intent} />
      <SubmitButton intent={intent} label={label} busyLabel="Saving..." variant={variant} />
    </Form>
  );
}

export default function PurchaseOrderPage({ loaderData }: Route.ComponentProps) {
  const { po, items, shipments, history, canWrite } = loaderData;
  const page = `/purchase-orders/${po.id}`;
  const status = po.status as PoStatus;
  const receivable = canWrite && (status === 'sent' || status === 'confirmed');
  const anyArrived = items.some((item) => item.received_qty > 0);
  return (
    <RecordPage
      back={{ to: '/purchase-orders', label: TEXTS.back }}
      title={po.po_number}
      status={<StatusBadge status={PO_STATUS_LABELS[status] ?? po.status} />}
      subtitle={po.supplier_name}
      actions={
        <div className="flex flex-wrap gap-2">
          <a href={`${page}/pdf`} download className={buttonClasses('outline')}>
            Download PDF
          </a>
          {canWrite ? (
            <>
            {status === 'draft' || status === 'sent' ? <IntentButton page={page} intent="send" label={status === 'draft' ? 'Send' : 'Send again'} /> : null}
            {status === 'sent' ? <IntentButton page={page} intent="confirm" label="Confirm" variant="outline" /> : null}
            {receivable ? <IntentButton page={page} intent="receive-all" label="Receive all" variant="outline" /> : null}
            {status !== 'received' && status !== 'cancelled' && !anyArrived ? (
              <IntentButton page={page} intent="cancel" label="Cancel order" variant="destructive" />
            ) : null}
            </>
          ) : null}
        </div>
      }
      facts={
        <FactsPanel
          facts={[
            { label: 'Supplier', value: po.supplier_name },
            { label: 'Supplier email', value: po.supplier_email },
            { label: 'Total', value: formatMoney(Number(po.total), po.currency) },
            { label: 'Expected on', value: po.expected_on ? formatShortDate(po.expected_on) : null },
            { label: 'Sent', value: po.sent_at ? formatDateTime(po.sent_at) : null },
            { label: 'Confirmed', value: po.confirmed_at ? formatDateTime(po.confirmed_at) : null },
            { label: 'Received', value: po.received_at ? formatDateTime(po.received_at) : null },
            { label: 'Notes', value: po.notes ? <span className="whitespace-pre-line">{po.notes}</span> : null },
          ]}
        />
      }
    >
      <Card>
        <CardHeader className="pb-3">
          <SectionHeading id="lines-heading">Line items</SectionHeading>
        </CardHeader>
        <CardContent>
          {/* Receive a part: each line's quantity that arrived now; the whole table is one form. */}
          <Form method="post" action={page} className="grid gap-3">
            <table aria-labelledby="lines-heading" className="w-full text-sm">
              <thead>
                <tr className="border-b border-border text-left text-muted-foreground">
                  <th className="py-2 font-medium">Description</th>
                  <th className="py-2 text-right font-medium">Qty</th>
                  <th className="py-2 text-right font-medium">Unit price</th>
                  <th className="py-2 text-right font-medium">Total</th>
                  <th className="py-2 text-right font-medium">Arrived</th>
                  {receivable ? <th className="py-2 text-right font-medium">Arriving now</th> : null}
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.id} className="border-b border-border last:border-0">
                    <td className="py-2 whitespace-pre-line">{item.description}</td>
                    <td className="py-2 text-right tabular-nums">{item.qty}</td>
                    <td className="py-2 text-right tabular-nums">{formatMoney(Number(item.unit_price), po.currency)}</td>
                    <td className="py-2 text-right tabular-nums">{formatMoney(Number(item.total), po.currency)}</td>
                    <td className="py-2 text-right tabular-nums">{item.received_qty}</td>
                    {receivable ? (
                      <td className="py-2 text-right">
                        {item.received_qty < item.qty ? (
                          <Input
                            name={`received.${item.id}`}
                            type="number"
                            min="0"
                            max={item.qty - item.received_qty}
                            step="1"
                            defaultValue="0"
                            aria-label={`Arriving now: ${item.description}`}
                            className="ml-auto h-8 w-20 text-right tabular-nums"
                          />
                        ) : (
                          <span className="text-muted-foreground">All in</span>
                        )}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
            {receivable ? (
              <>
                <input type="hidden" name="intent" value="receive" />
                <SubmitButton intent="receive" label="Record what arrived" busyLabel="Saving..." className="justify-self-end" />
              </>
            ) : null}
          </Form>
        </CardContent>
      </Card>
      {shipments.length > 0 ? (
        <Card>
          <CardHeader className="pb-3">
            <SectionHeading id="po-shipments-heading">Shipments</SectionHeading>
          </CardHeader>
          <CardContent>
            <ul aria-labelledby="po-shipments-heading" className="grid gap-2 text-sm">
              {shipments.map((shipment) => (
                <li key={shipment.id} className="flex flex-wrap items-center gap-2">
                  <Link to={`/shipments/${shipment.id}`} className="font-mono underline underline-offset-2">
                    {shipment.tracking_number}
                  </Link>
                  <StatusBadge status={shipment.status} />
                  <span className="text-muted-foreground">{formatDateTime(shipment.created_at)}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      <Timeline moments={[{ label: 'Created', at: po.created_at, covers: ['purchase_order_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}
