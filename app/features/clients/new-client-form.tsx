import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { newClientSchema } from '~/features/clients/schema';

/** The New Client dialog's form (docs/product-guide.md). Posts to /clients?new, so a failure re-renders it open and filled in. */
export function NewClientForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useSchemaForm(newClientSchema, { id: 'new-client', lastResult });
  return (
    <Form method="post" action="/clients?new" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.name} label="Name" autoComplete="name" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.company} label="Company" hint="Defaults to the name when left empty." autoComplete="organization" />
        <TextField field={fields.phone} label="Phone" type="tel" autoComplete="tel" />
      </div>
      <TextField field={fields.role} label="Role" autoComplete="organization-title" />
      <TextareaField field={fields.notes} label="Notes" rows={2} />
      <SubmitButton label="Create Client" busyLabel="Creating..." className="justify-self-end" />
    </Form>
  );
}
