import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { COMPLIANCE_CATEGORY_OPTIONS, FREQUENCY_OPTIONS, newAssessmentSchema, RISK_LEVEL_OPTIONS } from './schema';

/**
 * The New Assessment dialog's form (spec §3: title, category, risk level,
 * responsible team, next review date, description, requirements; issue 37:
 * owner and frequency). Posts to /compliance?new, so a failure re-renders it
 * open and filled in.
 */
export function NewAssessmentForm({ lastResult, owners }: { lastResult?: SubmissionResult<string[]>; owners: { value: string; label: string }[] }) {
  const [form, fields] = useSchemaForm(newAssessmentSchema, {
    id: 'new-assessment',
    lastResult,
    defaultValue: { category: 'financial', risk_level: 'medium', frequency: 'annual' },
  });
  return (
    <Form method="post" action="/compliance?new" className="grid gap-4" {...getFormProps(form)}>
      <TextField field={fields.title} label="Title" />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.category} label="Category" options={COMPLIANCE_CATEGORY_OPTIONS} />
        <SelectField field={fields.risk_level} label="Risk level" options={RISK_LEVEL_OPTIONS} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.responsible_team} label="Responsible team" />
        <SelectField field={fields.owner_id} label="Owner" options={[{ value: '', label: 'No owner' }, ...owners]} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField field={fields.next_review_date} label="Next review date" type="date" />
        <SelectField field={fields.frequency} label="Frequency" options={FREQUENCY_OPTIONS} />
        <TextField field={fields.interval_months} label="Months between reviews (custom)" type="number" />
      </div>
      <TextareaField field={fields.description} label="Description" rows={3} />
      <TextareaField field={fields.requirements} label="Requirements (optional)" rows={3} />
      <DialogActions closeTo="/compliance">
        <SubmitButton label="Create Assessment" busyLabel="Creating..." />
      </DialogActions>
    </Form>
  );
}
