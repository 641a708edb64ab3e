// A shipment's page (issue 36): what it carries and where, its tracking
// events newest first (typed by hand or posted by a carrier), an event added
// by hand and Mark delivered, each a plain post that works without
// JavaScript; the history of its audit rows below.
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import { kickJobRunner } from '~/jobs/kick.server';
import type { Route } from './+types/shipment-detail';
import { SectionHeading } from '~/components/page-header';
import { FactsPanel } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatDateTime, formatShortDate } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { addTrackingEvent, loadShipment, markDelivered } from './queries.server';
import { CARRIER_LABELS, shipmentActionSchema, type Carrier } from './schema';
import { TrackingEventForm } from './shipment-form';
import { SHIPMENT_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.shipment.tracking_number, 'Shipments') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadShipment);
  return { ...found, canWrite: canWriteBusiness(profile?.role), now: new Date().toISOString().slice(0, 16) };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const { supabase, id, page } = await recordWriter(args, '/shipments', TEXTS.notFound);
    const submission = parseWithZod(await readFormData(args.request), { schema: shipmentActionSchema });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const form = submission.value;
    const failed = (error: { code?: string; message?: string } | null, fallback: string) =>
      dataWithError(args, { result: submission.reply({ formErrors: [serverMessage(error, fallback)] }) }, serverMessage(error, fallback), {
        status: error?.code === 'P0002' ? 404 : 400,
      });
    if (form.intent === 'deliver') {
      const { error } = await markDelivered(supabase, id);
      if (error) return failed(error, TEXTS.deliverFailed);
      // The shipment_delivered event queued the delivery mails: they leave after the response.
      kickJobRunner(args.context);
      return redirectWithSuccess(page, TEXTS.delivered);
    }
    const { error } = await addTrackingEvent(supabase, id, form);
    if (error?.code === '22023' && error.hint) {
      return dataWithError(args, { result: submission.reply({ fieldErrors: { [error.hint]: [error.message] } }) }, error.message, { status: 400 });
    }
    if (error) return failed(error, TEXTS.eventFailed);
    // A Delivered or Exception event may have queued mails.
    if (form.status === 'Delivered' || form.status === 'Exception') kickJobRunner(args.context);
    return redirectWithSuccess(page, TEXTS.eventAdded);
  });
}

export default function ShipmentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { shipment, events, purchaseOrder, history, canWrite, now } = loaderData;
  const page = `/shipments/${shipment.id}`;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const dimensions =
    shipment.length !== null ? `${shipment.length} × ${shipment.width} × ${shipment.height} ${shipment.dimension_unit}` : null;
  return (
    <RecordPage
      back={{ to: '/shipments', label: TEXTS.back }}
      title={shipment.tracking_number}
      status={<StatusBadge status={shipment.status} />}
      subtitle={`${shipment.origin} → ${shipment.destination}`}
      actions={
        canWrite && shipment.status !== 'Delivered' ? (
          <Form method="post" action={page}>
            <input type="hidden" name="intent" value="deliver" />
            <SubmitButton intent="deliver" label="Mark delivered" busyLabel="Saving..." />
          </Form>
        ) : null
      }
      facts={
        <>
          <FactsPanel
            facts={[
              { label: 'Carrier', value: CARRIER_LABELS[shipment.carrier as Carrier] ?? shipment.carrier },
              { label: 'Origin', value: shipment.origin },
              { label: 'Destination', value: shipment.destination },
              { label: 'Weight', value: `${Number(shipment.weight)} ${shipment.weight_unit}` },
              { label: 'Dimensions', value: dimensions },
              { label: 'ETA', value: shipment.estimated_delivery ? formatShortDate(shipment.estimated_delivery) : null },
              { label: 'Delivered', value: shipment.delivered_at ? formatDateTime(shipment.delivered_at) : null },
              {
                label: 'Purchase order',
                value: purchaseOrder ? (
                  <Link to={`/purchase-orders/${purchaseOrder.id}`} className="underline underline-offset-2">
                    {purchaseOrder.po_number}
                  </Link>
                ) : null,
              },
              { label: 'Description', value: <span className="whitespace-pre-line">{shipment.description}</span> },
              {
                label: 'Special instructions',
                value: shipment.special_instructions ? <span className="whitespace-pre-line">{shipment.special_instructions}</span> : null,
              },
            ]}
          />
          {canWrite ? (
            <Card>
              <CardHeader>
                <SectionHeading>Add a tracking event</SectionHeading>
              </CardHeader>
              <CardContent>
                <TrackingEventForm action={page} now={now} lastResult={lastResult} />
              </CardContent>
            </Card>
          ) : null}
        </>
      }
    >
      <Card>
        <CardHeader className="pb-3">
          <SectionHeading id="tracking-heading">Tracking</SectionHeading>
        </CardHeader>
        <CardContent>
          {events.length === 0 ? <p className="text-sm text-muted-foreground">No tracking events yet.</p> : null}
          <ol aria-labelledby="tracking-heading" className="grid gap-3" data-testid="tracking-events">
            {events.map((event) => (
              <li key={event.id} className="grid gap-0.5 border-l-2 border-border pl-3 text-sm">
                <span className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={event.status} />
                  <time dateTime={event.occurred_at} className="text-muted-foreground">
                    {formatDateTime(event.occurred_at)}
                  </time>
                  {event.location ? <span className="text-muted-foreground">{event.location}</span> : null}
                </span>
                <span>{event.description}</span>
                <span className="text-xs text-muted-foreground">{event.source === 'carrier' ? `From the carrier (${event.provider})` : 'Added by hand'}</span>
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
      <Timeline moments={[{ label: 'Created', at: shipment.created_at, covers: ['shipment_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}
