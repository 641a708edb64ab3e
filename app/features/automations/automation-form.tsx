// The New Automation dialog's form (spec §3, decision 067) and the edit dialog
// of an automation's page (decision 080). Plain fields, so it works without
// JavaScript: the action's settings are all shown (the ones of the chosen
// action are used), and three condition rows of field / operator / value take
// the fields of the trigger's event payload (listed in the hint). 'Preview
// schedule' posts the form to the server, which answers the next five runs in
// the account's timezone with everything typed kept (croner stays off the
// client); with JavaScript the same post comes back without a page load.
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, type FormDefaults } from '~/components/form-controls';
import { Button } from '~/components/ui/button';
import { SubmitButton } from '~/components/submit-button';
import type { Option } from '~/lib/schemas/fields';
import { z } from '~/lib/schemas/zod';
import {
  ACTION_OPTIONS, CONDITION_ROWS, editAutomationSchema, FREQUENCY_OPTIONS, LEAD_STATUS_VALUES, newAutomationSchema, OPERATOR_OPTIONS,
  PAYLOAD_FIELDS, RECIPIENT_EVENT_CONTACT, RECIPIENT_FIXED, REPORT_FORMAT_OPTIONS, REPORT_RANGE_OPTIONS, REPORT_TYPE_OPTIONS, STATUS_CHOICES, TRIGGER_LABELS, TRIGGER_OPTIONS, type Trigger,
} from './schema';

const FIELD_HINT = Object.entries(PAYLOAD_FIELDS)
  .filter(([, fields]) => fields.length > 0)
  .map(([trigger, fields]) => `${TRIGGER_LABELS[trigger as Trigger]}: ${fields.join(', ')}`)
  .join('; ');

/** A preview post checks nothing but the schedule (the server answers it). */
const previewOnly = z.object({});

export type SchedulePreview = { runs: string[]; error: string | null; timezone: string };

const blank = (options: readonly Option[]) => [{ value: '', label: '—' }, ...options];

/** Send Email's recipients: the event's own contact, one of the account's users, or a fixed address typed below. */
const recipientOptions = (users: readonly Option[]) => [
  { value: RECIPIENT_EVENT_CONTACT, label: "The event's contact" },
  ...users,
  { value: RECIPIENT_FIXED, label: 'A fixed address (below)' },
];

export function AutomationForm({
  mode,
  action,
  closeTo,
  lastResult,
  choices,
  defaultValue,
  preview,
}: {
  mode: 'new' | 'edit';
  action: string;
  closeTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
  choices: { templates: Option[]; people: Option[]; recipients: Option[] };
  defaultValue: FormDefaults;
  preview?: SchedulePreview | null;
}) {
  const schema = mode === 'new' ? newAutomationSchema : editAutomationSchema;
  const [form, fields] = useForm({
    id: mode === 'new' ? 'new-automation' : 'edit-automation',
    lastResult,
    defaultValue,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: formData.get('preview') === 'schedule' ? previewOnly : schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const field = (name: string) => (fields as unknown as Record<string, typeof fields.name>)[name];
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      {mode === 'edit' ? <input type="hidden" name="intent" value="update" /> : null}
      <TextField field={fields.name} label="Workflow name" />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField field={fields.trigger} label="Trigger" options={TRIGGER_OPTIONS} />
        <SelectField field={fields.action} label="Action" options={ACTION_OPTIONS} />
        <SelectField field={fields.frequency} label="Frequency" options={FREQUENCY_OPTIONS} />
      </div>
      <TextField field={fields.cron} label="Cron expression (Custom)" hint="Five fields in the account's timezone, at most every 5 minutes, e.g. 0 9 * * 1-5" />
      <div className="grid gap-2" aria-live="polite">
        <p className="text-xs text-muted-foreground">Preview schedule (below) shows a scheduled automation's next five runs before saving.</p>
        {preview ? (
          preview.error ? (
            <p className="text-sm text-destructive">{preview.error}</p>
          ) : (
            <div className="text-sm">
              <p className="font-medium">Next five runs ({preview.timezone})</p>
              <ol className="list-decimal pl-5 text-muted-foreground">
                {preview.runs.map((at) => <li key={at}>{at}</li>)}
              </ol>
            </div>
          )
        ) : null}
      </div>
      <TextareaField field={fields.description} label="Description" rows={2} />
      <fieldset className="grid gap-3 rounded-md border border-border p-3">
        <legend className="px-1 text-sm font-medium">Action settings</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField field={fields.template_id} label="Template (Send Email)" options={blank(choices.templates)} />
          <SelectField field={fields.recipient} label="Recipient (Send Email)" options={recipientOptions(choices.recipients)} />
          <TextField field={fields.recipient_address} label="Fixed address (Send Email)" hint="With the recipient 'A fixed address': only an admin may enter one outside the account" />
          <SelectField field={fields.new_status} label="Status (Update Status)" options={blank(LEAD_STATUS_VALUES.map((s) => ({ value: s, label: s })))} />
          <SelectField field={fields.assignee_id} label="Assignee (Assign Task) / report recipient (Generate Report)" options={blank(choices.people)} />
          <TextField field={fields.task_title} label="Task (Assign Task)" hint="Variables from the event, e.g. Call {{name}}" />
          <SelectField field={fields.report_type} label="Report type (Generate Report)" options={blank(REPORT_TYPE_OPTIONS)} />
          <SelectField field={fields.report_format} label="Format (Generate Report)" options={blank(REPORT_FORMAT_OPTIONS)} />
          <SelectField field={fields.report_range} label="Date range (Generate Report)" options={blank(REPORT_RANGE_OPTIONS)} />
        </div>
        <p className="text-xs text-muted-foreground">Create Invoice makes a draft invoice for the accepted quote (trigger Quote Accepted).</p>
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
      {mode === 'new' ? <SelectField field={fields.status} label="Status" options={STATUS_CHOICES} /> : null}
      <DialogActions closeTo={closeTo}>
        {mode === 'new' ? <SubmitButton label="Create Automation" busyLabel="Creating..." /> : <SubmitButton label="Save Changes" busyLabel="Saving..." />}
        {/* After the save button: Enter in a field submits the form, not the preview. */}
        <Button type="submit" name="preview" value="schedule" variant="outline" formNoValidate>
          Preview schedule
        </Button>
      </DialogActions>
    </Form>
  );
}
