import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { FormField } from '~/components/form-field';
import { Input, Textarea } from '~/components/ui/input';
import { templateFormSchema } from '~/lib/schemas/settings-templates';
import { TEMPLATE_TYPE_LABELS, TEMPLATE_TYPES } from '~/lib/settings-options';
import { useHydrated } from '~/lib/use-hydrated';
import { DialogActions, SelectField, SubmitButton } from './form-controls';

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
  const [form, fields] = useForm({
    id: `template-${values.id ?? 'new'}`,
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(templateFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: templateFormSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const editing = Boolean(values.id);
  // Only an email has a subject. Without JavaScript the field cannot follow the
  // type as it changes, so it stays and the server drops it for other types.
  const hydrated = useHydrated();
  const showSubject = !hydrated || (fields.type.value ?? values.type) === 'email';
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save" />
      {values.id ? <input type="hidden" name="id" value={values.id} /> : null}
      <FormField label="Name" htmlFor={fields.name.id} errorId={fields.name.errorId} errors={fields.name.errors}>
        <Input {...getInputProps(fields.name, { type: 'text' })} />
      </FormField>
      <SelectField field={fields.type} label="Type" options={TYPE_OPTIONS} />
      {showSubject ? (
        <FormField
          label="Subject"
          htmlFor={fields.subject.id}
          errorId={fields.subject.errorId}
          errors={fields.subject.errors}
          hint="Email templates only; other types have no subject."
        >
          <Input {...getInputProps(fields.subject, { type: 'text' })} />
        </FormField>
      ) : null}
      <FormField label="Content" htmlFor={fields.content.id} errorId={fields.content.errorId} errors={fields.content.errors}>
        <Textarea {...getTextareaProps(fields.content)} rows={6} />
      </FormField>
      <FormField
        label="Variables (JSON)"
        htmlFor={fields.variables.id}
        errorId={fields.variables.errorId}
        errors={fields.variables.errors}
        hint='For example {"contact_name": "Client name"}. Leave empty for none.'
      >
        <Textarea {...getTextareaProps(fields.variables)} rows={4} className="font-mono" spellCheck={false} />
      </FormField>
      <DialogActions closeTo={closeTo}>
        <SubmitButton
          intent="save"
          label={editing ? 'Update Template' : 'Create Template'}
          busyLabel={editing ? 'Updating...' : 'Creating...'}
        />
      </DialogActions>
    </Form>
  );
}
