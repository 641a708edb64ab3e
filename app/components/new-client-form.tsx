import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { FormField } from '~/components/form-field';
import { SubmitButton } from '~/components/submit-button';
import { Input, Textarea } from '~/components/ui/input';
import { newClientSchema } from '~/lib/schemas/clients';

/** The New Client dialog's form (spec §5). Posts to /clients?new, so a failure re-renders it open and filled in. */
export function NewClientForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: 'new-client',
    lastResult,
    constraint: getZodConstraint(newClientSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newClientSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const field = (name: keyof typeof fields) => ({
    htmlFor: fields[name].id,
    errorId: fields[name].errorId,
    errors: fields[name].errors,
  });
  return (
    <Form method="post" action="/clients?new" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" {...field('name')}>
          <Input {...getInputProps(fields.name, { type: 'text' })} autoComplete="name" />
        </FormField>
        <FormField label="Email" {...field('email')}>
          <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Company" hint="Defaults to the name when left empty." {...field('company')}>
          <Input {...getInputProps(fields.company, { type: 'text' })} autoComplete="organization" />
        </FormField>
        <FormField label="Phone" {...field('phone')}>
          <Input {...getInputProps(fields.phone, { type: 'tel' })} autoComplete="tel" />
        </FormField>
      </div>
      <FormField label="Role" {...field('role')}>
        <Input {...getInputProps(fields.role, { type: 'text' })} autoComplete="organization-title" />
      </FormField>
      <FormField label="Notes" {...field('notes')}>
        <Textarea {...getTextareaProps(fields.notes)} rows={2} />
      </FormField>
      <SubmitButton idle="Create Client" busy="Creating..." />
    </Form>
  );
}
