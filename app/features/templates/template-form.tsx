import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { templateFormSchema } from '~/features/templates/schema';
import { TEMPLATE_TYPE_LABELS, TEMPLATE_TYPES } from './schema';
import { useHydrated } from '~/lib/use-hydrated';
import { SaveButton, SaveIntent } from '~/components/settings/save-controls';

export interface TemplateValues {
  id?: string;
  name: string;
  type: string;
  subject: string;
  content: string;
  variables: string;
}

const TYPE_OPTIONS = TEMPLATE_TYPES.map((value) => ({ value, label: TEMPLATE_TYPE_LABELS[value] }));

/** Create or edit a template; the same form either way, told apart by the id. */
export function TemplateForm({
  values,
  lastResult,
  closeTo,
}: {
  values: TemplateValues;
  lastResult: SubmissionResult<string[]> | undefined;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(templateFormSchema, {
    id: `template-${values.id ?? 'new'}`,
    lastResult,
    defaultValue: { ...values },
  });
  // Only an email has a subject. Without JavaScript the field cannot follow the
  // type as it changes, so it stays and the server drops it for other types.
  const hydrated = useHydrated();
  const showSubject = !hydrated || (fields.type.value ?? values.type) === 'email';
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <SaveIntent id={values.id} />
      <TextField field={fields.name} label="Name" />
      <SelectField field={fields.type} label="Type" options={TYPE_OPTIONS} />
      {showSubject ? (
        <TextField field={fields.subject} label="Subject" hint="Email templates only; other types have no subject." />
      ) : null}
      <TextareaField field={fields.content} label="Content" rows={6} />
      <TextareaField
        field={fields.variables}
        label="Variables (JSON)"
        hint='For example {"contact_name": "Client name"}. Leave empty for none.'
        rows={4}
        className="font-mono"
        spellCheck={false}
      />
      <DialogActions closeTo={closeTo}>
        <SaveButton editing={Boolean(values.id)} noun="Template" />
      </DialogActions>
    </Form>
  );
}
