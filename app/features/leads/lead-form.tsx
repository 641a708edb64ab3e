import { getCollectionProps, getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { SelectField, TextareaField, TextField, useSchemaForm, type FormDefaults } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { DEFAULT_LEAD_SOURCE, LEAD_INTEREST_OPTIONS, LEAD_SOURCE_OPTIONS, newLeadSchema } from '~/features/leads/schema';

/** The New Lead dialog's form (docs/product-guide.md). Posts to /leads?new, so a failure re-renders it open and filled in. */
export function NewLeadForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  return (
    <LeadForm
      id="new-lead"
      action="/leads?new"
      lastResult={lastResult}
      defaultValue={{ source: DEFAULT_LEAD_SOURCE }}
      submitLabel="Create Lead"
      busyLabel="Creating..."
    />
  );
}

/**
 * A lead's fields, to create one or edit it. Posted to the page that opened
 * the dialog (`action`), so a failure re-renders it open and filled in.
 */
export function LeadForm({
  id,
  action,
  lastResult,
  defaultValue,
  submitLabel,
  busyLabel,
  intent,
}: {
  id: string;
  action: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue: FormDefaults;
  submitLabel: string;
  busyLabel: string;
  /** The action's intent, when its page posts more than one form. */
  intent?: string;
}) {
  const [form, fields] = useSchemaForm(newLeadSchema, { id, lastResult, defaultValue });
  const interests = getCollectionProps(fields.interest, {
    type: 'checkbox',
    options: LEAD_INTEREST_OPTIONS.map((option) => option.value),
  });
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.name} label="Full name" autoComplete="name" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.company} label="Company" autoComplete="organization" />
        <TextField field={fields.phone_whatsapp} label="Phone/WhatsApp" type="tel" autoComplete="tel" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.role} label="Job role" autoComplete="organization-title" />
        <SelectField field={fields.source} label="Source" options={LEAD_SOURCE_OPTIONS} />
      </div>
      <fieldset className="grid gap-2" aria-describedby={fields.interest.errorId}>
        <legend className="text-sm font-medium">Interests</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {interests.map((props, index) => (
            <label key={props.key} className="flex items-center gap-2 text-sm">
              <input {...props} key={props.key} className="size-4" />
              {LEAD_INTEREST_OPTIONS[index].label}
            </label>
          ))}
        </div>
        <div id={fields.interest.errorId} className="text-sm text-destructive">
          {/* allErrors: a value off the list fails on interest[i], not on interest itself. */}
          {[...new Set(Object.values(fields.interest.allErrors).flat())].map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      </fieldset>
      <TextareaField field={fields.notes} label="Notes" rows={2} />
      <SubmitButton label={submitLabel} busyLabel={busyLabel} intent={intent} className="justify-self-end" />
    </Form>
  );
}
