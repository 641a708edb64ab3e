import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { CheckCircle2, Clock, MapPin, Package, Truck } from '~/components/icons';
import { Form, useSearchParams } from 'react-router';
import type { Route } from './+types/shipments';
import { PreviewBanner, SampleBadge } from '~/components/preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatShortDate } from '~/lib/dates';
import { SAMPLE_SHIPMENTS, SHIPMENT_SUMMARY, type SampleShipment } from './samples';
import { CARRIER_LABELS, CARRIER_OPTIONS, newShipmentSchema } from './schema';
import { SIMULATED_ACTIONS } from '~/lib/simulated';
import { simulatedCreate } from '~/lib/simulated.server';
import { CreateLink } from '~/components/create-link';
import { pageTitle } from '~/lib/page-title';

const LIST_PATH = '/shipments';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Shipments') }];

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, { action: 'shipment', schema: newShipmentSchema, listPath: LIST_PATH });
}

export default function Shipments({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="Shipments"
        description="Track purchase orders from shipment to delivery."
        actions={
          <CreateLink to="?new">New Shipment</CreateLink>
        }
      />
      <StatGrid label="Shipment summary">
        <StatCard label="Active Shipments" value={SHIPMENT_SUMMARY.active} note={SHIPMENT_SUMMARY.activeNote} icon={Package} />
        <StatCard label="In Transit" value={SHIPMENT_SUMMARY.inTransit} note={SHIPMENT_SUMMARY.inTransitNote} icon={Truck} />
        <StatCard
          label="Delivered This Month"
          value={SHIPMENT_SUMMARY.deliveredThisMonth}
          note={SHIPMENT_SUMMARY.deliveredNote}
          icon={CheckCircle2}
        />
        <StatCard label="On-Time Rate" value={SHIPMENT_SUMMARY.onTimeRate} note={SHIPMENT_SUMMARY.onTimeNote} icon={Clock} />
      </StatGrid>
      <Card>
        <CardHeader>
          <SectionHeading>Recent Shipments</SectionHeading>
          <p className="text-sm text-muted-foreground">Sample shipments of this demonstration screen.</p>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4">
            {SAMPLE_SHIPMENTS.map((shipment) => (
              <ShipmentRow key={shipment.id} shipment={shipment} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <UrlDialog
        open={searchParams.has('new')}
        closeTo={LIST_PATH}
        title="Create New Shipment"
        description="Book a shipment: where from, where to, the carrier and what goes in it."
      >
        <NewShipmentForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

const weightFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

function ShipmentRow({ shipment }: { shipment: SampleShipment }) {
  return (
    <li className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-mono text-sm font-semibold">{shipment.trackingNumber}</h3>
        <div className="flex items-center gap-2">
          <SampleBadge />
          <StatusBadge status={shipment.status} />
        </div>
      </div>
      <p className="flex items-center gap-2 text-sm">
        <MapPin className="size-4 text-muted-foreground" aria-hidden="true" />
        <span>
          {shipment.origin} <span aria-hidden="true">→</span>
          <span className="sr-only"> to </span> {shipment.destination}
        </span>
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Carrier</dt>
          <dd className="font-medium">{CARRIER_LABELS[shipment.carrier]}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">ETA</dt>
          <dd className="font-medium">
            <time dateTime={shipment.estimatedDelivery}>{formatShortDate(shipment.estimatedDelivery)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Weight</dt>
          <dd className="font-medium">{weightFormat.format(shipment.weightKg)} kg</dd>
        </div>
      </dl>
    </li>
  );
}

function NewShipmentForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(newShipmentSchema, {
    id: 'new-shipment',
    lastResult,
    defaultValue: { carrier: 'fedex' },
  });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.origin} label="Origin" placeholder="City, country" />
        <TextField field={fields.destination} label="Destination" placeholder="City, country" />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField field={fields.carrier} label="Carrier" options={CARRIER_OPTIONS} />
        <TextField field={fields.weight} label="Weight (kg)" type="number" step="0.1" min="0" inputMode="decimal" />
        <TextField field={fields.dimensions} label="Dimensions (optional)" placeholder="L × W × H cm" />
      </div>
      <TextareaField field={fields.description} label="Description" rows={2} />
      <TextareaField field={fields.special_instructions} label="Special instructions (optional)" rows={2} />
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Create Shipment" busyLabel={SIMULATED_ACTIONS.shipment.busyLabel} />
      </DialogActions>
    </Form>
  );
}
