import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { ItemFields } from './item-fields';
import { newAssessmentSchema } from './schema';

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
      <ItemFields fields={fields} owners={owners} reviewDate={{ field: fields.next_review_date, label: 'Next review date' }} />
      <DialogActions closeTo="/compliance">
        <SubmitButton label="Create Assessment" busyLabel="Creating..." />
      </DialogActions>
    </Form>
  );
}
