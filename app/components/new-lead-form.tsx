import { getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { FormField } from '~/components/form-field';
import { SubmitButton } from '~/components/submit-button';
import { Input, NativeSelect, Textarea } from '~/components/ui/input';
import { DEFAULT_LEAD_SOURCE, LEAD_INTEREST_OPTIONS, LEAD_SOURCE_OPTIONS, newLeadSchema } from '~/lib/schemas/leads';

/** The New Lead dialog's form (spec §5). Posts to /leads?new, so a failure re-renders it open and filled in. */
export function NewLeadForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: 'new-lead',
    lastResult,
    defaultValue: { source: DEFAULT_LEAD_SOURCE },
    constraint: getZodConstraint(newLeadSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newLeadSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const field = (name: keyof typeof fields) => ({
    htmlFor: fields[name].id,
    errorId: fields[name].errorId,
    errors: fields[name].errors,
  });
  const interests = getCollectionProps(fields.interest, {
    type: 'checkbox',
    options: LEAD_INTEREST_OPTIONS.map((option) => option.value),
  });
  return (
    <Form method="post" action="/leads?new" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Full name" {...field('name')}>
          <Input {...getInputProps(fields.name, { type: 'text' })} autoComplete="name" />
        </FormField>
        <FormField label="Email" {...field('email')}>
          <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Company" {...field('company')}>
          <Input {...getInputProps(fields.company, { type: 'text' })} autoComplete="organization" />
        </FormField>
        <FormField label="Phone/WhatsApp" {...field('phone_whatsapp')}>
          <Input {...getInputProps(fields.phone_whatsapp, { type: 'tel' })} autoComplete="tel" />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Job role" {...field('role')}>
          <Input {...getInputProps(fields.role, { type: 'text' })} autoComplete="organization-title" />
        </FormField>
        <FormField label="Source" {...field('source')}>
          <NativeSelect {...getSelectProps(fields.source)}>
            {LEAD_SOURCE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
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
      <FormField label="Notes" {...field('notes')}>
        <Textarea {...getTextareaProps(fields.notes)} rows={2} />
      </FormField>
      <SubmitButton idle="Create Lead" busy="Creating..." />
    </Form>
  );
}
