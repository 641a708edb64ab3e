import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { CARRIER_OPTIONS, newShipmentSchema, SHIPMENT_STATUS_OPTIONS, trackingEventSchema, WEIGHT_UNIT_OPTIONS } from './schema';

/** The New Shipment dialog of spec §3: a plain post to the list, works without JavaScript. */
export function NewShipmentForm({ closeTo, lastResult }: { closeTo: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(newShipmentSchema, {
    id: 'new-shipment',
    lastResult,
    defaultValue: { carrier: 'fedex', weight_unit: 'kg' },
  });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.origin} label="Origin" placeholder="City, country" />
        <TextField field={fields.destination} label="Destination" placeholder="City, country" />
      </div>
      <div className="grid gap-4 sm:grid-cols-4">
        <SelectField field={fields.carrier} label="Carrier" options={CARRIER_OPTIONS} />
        <TextField field={fields.weight} label="Weight" type="number" step="0.001" min="0" inputMode="decimal" />
        <SelectField field={fields.weight_unit} label="Unit" options={WEIGHT_UNIT_OPTIONS} />
        <TextField field={fields.dimensions} label="Dimensions (optional)" placeholder="L × W × H cm" />
      </div>
      <TextareaField field={fields.description} label="Description" rows={2} />
      <TextareaField field={fields.special_instructions} label="Special instructions (optional)" rows={2} />
      <DialogActions closeTo={closeTo}>
        <SubmitButton label="Create Shipment" busyLabel="Creating..." />
      </DialogActions>
    </Form>
  );
}

/** A tracking event typed by hand: when (UTC), the status it reports, where, and what happened. */
export function TrackingEventForm({ action, now, lastResult }: { action: string; now: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(trackingEventSchema, {
    id: 'tracking-event',
    lastResult,
    defaultValue: { intent: 'event', status: 'In Transit', occurred_at: now },
  });
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="event" />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField field={fields.status} label="Status" options={SHIPMENT_STATUS_OPTIONS} />
        <TextField field={fields.occurred_at} label="When (UTC)" type="datetime-local" />
      </div>
      <TextField field={fields.location} label="Location (optional)" />
      <TextField field={fields.description} label="Description" />
      <SubmitButton intent="event" label="Add event" busyLabel="Adding..." className="justify-self-end" />
    </Form>
  );
}
