// The /rfp forms: the New RFP Response dialog (spec §3) and the record page's edit, status and go/no-go
// forms, each a plain post (works without JavaScript; the server validates every one again).
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm, type FormDefaults } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { editRfpSchema, newRfpResponseSchema, RFP_DECISION_LABELS, RFP_DECISIONS, RFP_STATUS_OPTIONS, rfpDecisionSchema, rfpStatusSchema } from './schema';

type Result = SubmissionResult<string[]> | undefined;
type Owners = { value: string; label: string }[];

const DECISION_OPTIONS = RFP_DECISIONS.map((value) => ({ value, label: RFP_DECISION_LABELS[value] }));

/** A bid pursued from a radar opportunity: the notice's values, filled in. */
export interface PursuedFrom {
  id: string;
  currency: string;
  defaultValue: FormDefaults;
}

/**
 * The dialog's form. Posts to /rfp?new (with the opportunity pursued, if any), so a failure re-renders it
 * open and filled in.
 */
export function NewRfpResponseForm({ lastResult, pursued }: { lastResult: Result; pursued?: PursuedFrom | null }) {
  const [form, fields] = useSchemaForm(newRfpResponseSchema, {
    id: pursued ? `pursue-${pursued.id}` : 'new-rfp-response', lastResult,
    defaultValue: pursued ? { ...pursued.defaultValue, opportunity_id: pursued.id, currency: pursued.currency } : undefined,
  });
  const currency = pursued?.currency ?? 'USD';
  return (
    <Form method="post" action={pursued ? `/rfp?new&opportunity=${pursued.id}` : '/rfp?new'} className="grid gap-4" {...getFormProps(form)}>
      {pursued ? (
        <>
          <input type="hidden" name="opportunity_id" value={pursued.id} />
          <input type="hidden" name="currency" value={currency} />
        </>
      ) : null}
      <TextField field={fields.title} label="RFP title" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.company} label="Company" autoComplete="organization" />
        <TextField field={fields.contact_email} label="Contact email" type="email" autoComplete="email" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.value} label={`Value (${currency})`} type="number" step="0.01" min="0" inputMode="decimal" />
        <TextField field={fields.deadline} label="Deadline" type="date" />
      </div>
      <TextareaField field={fields.proposal} label="Proposal" rows={4} />
      <TextareaField field={fields.additional_notes} label="Additional notes (optional)" rows={2} />
      <DialogActions closeTo={pursued ? '/rfp/radar' : '/rfp'}>
        <SubmitButton label="Create Response" busyLabel="Creating..." />
      </DialogActions>
    </Form>
  );
}

export function EditRfpForm({ action, defaultValue, owners, currency, lastResult }: {
  action: string; defaultValue: FormDefaults; owners: Owners; currency: string; lastResult: Result;
}) {
  const [form, fields] = useSchemaForm(editRfpSchema, { id: 'edit-rfp', lastResult, defaultValue });
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="update" />
      <TextField field={fields.title} label="RFP title" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.company} label="Company" />
        <TextField field={fields.contact_email} label="Contact email" type="email" />
        <TextField field={fields.value} label={`Value (${currency})`} type="number" step="0.01" min="0" inputMode="decimal" />
        <TextField field={fields.deadline} label="Deadline" type="date" />
      </div>
      <SelectField field={fields.owner_id} label="Owner" options={[{ value: '', label: 'No owner' }, ...owners]} />
      <TextareaField field={fields.proposal} label="Proposal" rows={4} />
      <TextareaField field={fields.additional_notes} label="Additional notes (optional)" rows={2} />
      <SubmitButton intent="update" label="Save Changes" busyLabel="Saving..." className="justify-self-end" />
    </Form>
  );
}

export function RfpStatusForm({ action, status, lastResult }: { action: string; status: string; lastResult: Result }) {
  const [form, fields] = useSchemaForm(rfpStatusSchema, { id: 'rfp-status', lastResult, defaultValue: { intent: 'status', status } });
  return (
    <Form method="post" action={action} className="flex flex-wrap items-end gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="status" />
      <SelectField field={fields.status} label="Status" options={RFP_STATUS_OPTIONS} />
      <SubmitButton intent="status" label="Change Status" busyLabel="Saving..." />
    </Form>
  );
}

export function RfpDecisionForm({ action, defaultValue, lastResult }: { action: string; defaultValue: FormDefaults; lastResult: Result }) {
  const [form, fields] = useSchemaForm(rfpDecisionSchema, { id: 'rfp-decision', lastResult, defaultValue: { intent: 'decide', ...defaultValue } });
  return (
    <Form method="post" action={action} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="decide" />
      <SelectField field={fields.decision} label="Decision" options={DECISION_OPTIONS} />
      <TextareaField field={fields.decision_reasons} label="Reasons" rows={3} />
      <SubmitButton intent="decide" label="Record Decision" busyLabel="Saving..." className="justify-self-end" />
    </Form>
  );
}
