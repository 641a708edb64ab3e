// The forms of an item's page: record a review (outcome, day, notes; optionally
// superseding an earlier one) and add evidence (a file with its effective date
// and expiry), and the ?edit dialog's form. All post to the page and work without JavaScript.
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { ItemFields } from './item-fields';
import { COMPLIANCE_STATUSES, editItemSchema, evidenceSchema, reviewSchema } from './schema';
import { COMPLIANCE_DETAIL_TEXTS as TEXTS } from './texts';

const OUTCOME_OPTIONS = COMPLIANCE_STATUSES.map((value) => ({ value, label: value }));

export function ReviewForm({
  action, today, lastResult, reviews,
}: { action: string; today: string; lastResult?: SubmissionResult<string[]>; reviews: { id: string; label: string }[] }) {
  const [form, fields] = useSchemaForm(reviewSchema, { id: 'record-review', lastResult, defaultValue: { reviewed_on: today, outcome: 'Compliant' } });
  return (
    <Form method="post" action={action} encType="multipart/form-data" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="review" />
      <TextField field={fields.reviewed_on} label="Review date" type="date" />
      <SelectField field={fields.outcome} label="Outcome" options={OUTCOME_OPTIONS} />
      <TextareaField field={fields.notes} label="Notes" rows={3} />
      {reviews.length > 0 ? (
        <SelectField field={fields.supersedes} label="Supersedes (optional)" options={[{ value: '', label: 'A new review' }, ...reviews.map((r) => ({ value: r.id, label: r.label }))]} />
      ) : null}
      <fieldset className="grid gap-3 rounded-md border border-border p-3">
        <legend className="px-1 text-sm font-medium">Evidence (optional)</legend>
        <div className="grid gap-1">
          <label htmlFor={fields.evidence_file.id} className="text-sm font-medium">Evidence file (PDF, PNG, JPEG, text or JSON; 10 MB at most)</label>
          <input id={fields.evidence_file.id} name={fields.evidence_file.name} type="file" accept=".pdf,.png,.jpg,.jpeg,.txt,.json" aria-describedby={fields.evidence_file.errorId} className="text-sm" />
          <div id={fields.evidence_file.errorId} className="text-sm text-destructive">
            {(fields.evidence_file.errors ?? []).map((error) => (
              <p key={error}>{error}</p>
            ))}
          </div>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField field={fields.evidence_title} label="Title of the evidence" />
          <TextField field={fields.evidence_expires_on} label="Its expiry (optional)" type="date" />
        </div>
      </fieldset>
      <SubmitButton label={TEXTS.recordReview} busyLabel="Saving..." />
    </Form>
  );
}

export function EvidenceForm({ action, today, lastResult }: { action: string; today: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(evidenceSchema, { id: 'add-evidence', lastResult, defaultValue: { effective_on: today } });
  return (
    <Form method="post" action={action} encType="multipart/form-data" className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="evidence" />
      <TextField field={fields.title} label="Evidence title" />
      <div className="grid gap-1">
        <label htmlFor={fields.file.id} className="text-sm font-medium">File (PDF, PNG, JPEG, text or JSON; 10 MB at most)</label>
        <input id={fields.file.id} name={fields.file.name} type="file" accept=".pdf,.png,.jpg,.jpeg,.txt,.json" aria-describedby={fields.file.errorId} className="text-sm" />
        <div id={fields.file.errorId} className="text-sm text-destructive">
          {(fields.file.errors ?? []).map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField field={fields.effective_on} label="Effective date" type="date" />
        <TextField field={fields.expires_on} label="Expiry date (optional)" type="date" />
      </div>
      <SubmitButton label={TEXTS.uploadEvidence} busyLabel="Uploading..." />
    </Form>
  );
}

export function EditItemForm({
  action, closeTo, owners, lastResult, defaultValue,
}: {
  action: string;
  closeTo: string;
  owners: { value: string; label: string }[];
  lastResult?: SubmissionResult<string[]>;
  defaultValue: Record<string, string>;
}) {
  const [form, fields] = useSchemaForm(editItemSchema, { id: 'edit-requirement', lastResult, defaultValue });
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="update" />
      {form.errors?.length ? (
        <div id={form.errorId} role="alert" className="text-sm text-destructive">
          {form.errors.map((error) => <p key={error}>{error}</p>)}
        </div>
      ) : null}
      <ItemFields fields={fields} owners={owners} reviewDate={{ field: fields.first_review_date, label: 'First review date' }} />
      <DialogActions closeTo={closeTo}>
        <SubmitButton label="Save Changes" busyLabel="Saving..." />
      </DialogActions>
    </Form>
  );
}
