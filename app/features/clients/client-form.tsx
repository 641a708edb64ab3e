import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { SelectField, TextareaField, TextField, useSchemaForm, type FormDefaults } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { statusOptions } from '~/lib/list-query';
import { COUNTRY_OPTIONS } from '~/lib/seller';
import { CLIENT_STATUSES, editClientSchema, newClientSchema } from '~/features/clients/schema';

const STATUS_OPTIONS = statusOptions(CLIENT_STATUSES);

/** The New Client dialog's form (docs/product-guide.md). Posts to /clients?new, so a failure re-renders it open and filled in. */
export function NewClientForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  return <ClientForm id="new-client" action="/clients?new" lastResult={lastResult} submitLabel="Create Client" busyLabel="Creating..." />;
}

/**
 * A client's fields, to create one or (with `edit`, its status too) edit it.
 * Posted to the page that opened the dialog, so a failure re-renders it open and filled in.
 */
export function ClientForm({
  id,
  action,
  lastResult,
  defaultValue,
  submitLabel,
  busyLabel,
  edit = false,
}: {
  id: string;
  action: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue?: FormDefaults;
  submitLabel: string;
  busyLabel: string;
  edit?: boolean;
}) {
  const [form, fields] = useSchemaForm(edit ? editClientSchema : newClientSchema, { id, lastResult, defaultValue });
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      {edit ? <input type="hidden" name="intent" value="update" /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.name} label="Name" autoComplete="name" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.company} label="Company" hint="Defaults to the name when left empty." autoComplete="organization" />
        <TextField field={fields.phone} label="Phone" type="tel" autoComplete="tel" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.role} label="Role" autoComplete="organization-title" />
        {edit ? <SelectField field={fields.status} label="Status" options={STATUS_OPTIONS} /> : null}
      </div>
      <TextareaField field={fields.address} label="Address" rows={2} autoComplete="street-address" />
      <SelectField field={fields.country} label="Country" options={COUNTRY_OPTIONS} hint="Needed for e-invoices." />
      <TextareaField field={fields.notes} label="Notes" rows={2} />
      <SubmitButton label={submitLabel} busyLabel={busyLabel} intent={edit ? 'update' : undefined} className="justify-self-end" />
    </Form>
  );
}
