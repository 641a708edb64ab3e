// The New Automation dialog's form (spec §3, decision 067). Plain fields, so it
// works without JavaScript: the action's settings are all shown (the ones of
// the chosen action are used), and three condition rows of field / operator /
// value take the fields of the trigger's event payload (listed in the hint).
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import type { Option } from '~/lib/schemas/fields';
import {
  ACTION_OPTIONS, CONDITION_ROWS, FREQUENCY_OPTIONS, LEAD_STATUS_VALUES, newAutomationSchema, OPERATOR_OPTIONS, PAYLOAD_FIELDS,
  STATUS_CHOICES, TRIGGER_LABELS, TRIGGER_OPTIONS, type Trigger,
} from './schema';

const FIELD_HINT = Object.entries(PAYLOAD_FIELDS)
  .filter(([, fields]) => fields.length > 0)
  .map(([trigger, fields]) => `${TRIGGER_LABELS[trigger as Trigger]}: ${fields.join(', ')}`)
  .join('; ');

export function NewAutomationForm({
  lastResult,
  choices,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  choices: { templates: Option[]; people: Option[] };
}) {
  const [form, fields] = useSchemaForm(newAutomationSchema, {
    id: 'new-automation',
    lastResult,
    defaultValue: { trigger: 'quote_accepted', action: 'send_email', frequency: 'immediate', status: 'draft', recipient: 'event_contact' },
  });
  const field = (name: string) => (fields as unknown as Record<string, typeof fields.name>)[name];
  return (
    <Form method="post" action="/automations?new" className="grid gap-4" {...getFormProps(form)}>
      <TextField field={fields.name} label="Workflow name" />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField field={fields.trigger} label="Trigger" options={TRIGGER_OPTIONS} />
        <SelectField field={fields.action} label="Action" options={ACTION_OPTIONS} />
        <SelectField field={fields.frequency} label="Frequency" options={FREQUENCY_OPTIONS} />
      </div>
      <TextField field={fields.cron} label="Cron expression (Custom)" hint="Five fields in the account's timezone, at most every 5 minutes, e.g. 0 9 * * 1-5" />
      <TextareaField field={fields.description} label="Description" rows={2} />
      <fieldset className="grid gap-3 rounded-md border border-border p-3">
        <legend className="px-1 text-sm font-medium">Action settings</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField field={fields.template_id} label="Template (Send Email)" options={[{ value: '', label: '—' }, ...choices.templates]} />
          <TextField field={fields.recipient} label="Recipient (Send Email)" hint="event_contact, or a fixed address" />
          <SelectField
            field={fields.new_status}
            label="Status (Update Status)"
            options={[{ value: '', label: '—' }, ...LEAD_STATUS_VALUES.map((s) => ({ value: s, label: s }))]}
          />
          <SelectField field={fields.assignee_id} label="Assignee (Assign Task)" options={[{ value: '', label: '—' }, ...choices.people]} />
          <TextField field={fields.task_title} label="Task (Assign Task)" hint="Variables from the event, e.g. Call {{name}}" />
        </div>
      </fieldset>
      <fieldset className="grid gap-3 rounded-md border border-border p-3">
        <legend className="px-1 text-sm font-medium">Conditions (optional)</legend>
        <p className="text-xs text-muted-foreground">Fields by trigger: {FIELD_HINT}</p>
        {Array.from({ length: CONDITION_ROWS }, (_, i) => (
          <div key={i} className="grid gap-2 sm:grid-cols-3">
            <TextField field={field(`condition_field_${i}`)} label={`Field ${i + 1}`} />
            <SelectField field={field(`condition_operator_${i}`)} label={`Operator ${i + 1}`} options={OPERATOR_OPTIONS} />
            <TextField field={field(`condition_value_${i}`)} label={`Value ${i + 1}`} />
          </div>
        ))}
      </fieldset>
      <SelectField field={fields.status} label="Status" options={STATUS_CHOICES} />
      <DialogActions closeTo="/automations">
        <SubmitButton label="Create Automation" busyLabel="Creating..." />
      </DialogActions>
    </Form>
  );
}
