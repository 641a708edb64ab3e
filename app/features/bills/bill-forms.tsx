import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { TextareaField, TextField, useSchemaForm, type FormDefaults } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { editBillSchema, payBillSchema } from './schema';

/** Mark paid: the day it was paid (today by default). A plain post to the bill's page. */
export function PayBillForm({ action, today, lastResult }: { action: string; today: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(payBillSchema, { id: 'pay-bill', lastResult, defaultValue: { intent: 'pay', paid_on: today } });
  return (
    <Form method="post" action={action} className="flex flex-wrap items-end gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="pay" />
      <TextField field={fields.paid_on} label="Paid on" type="date" />
      <SubmitButton intent="pay" label="Mark paid" busyLabel="Saving..." />
    </Form>
  );
}

/** A bill's fields as the document gave them, to correct while it is to pay. Amounts as typed (e.g. 1200.00). */
export function EditBillForm({ action, defaultValue, lastResult }: { action: string; defaultValue: FormDefaults; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(editBillSchema, { id: 'edit-bill', lastResult, defaultValue });
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="update" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.supplier_name} label="Supplier" />
        <TextField field={fields.number} label="Number" />
        <TextField field={fields.supplier_email} label="Supplier email" type="email" />
        <TextField field={fields.supplier_tax_id} label="Supplier tax ID" />
        <TextField field={fields.issue_date} label="Issue date" type="date" />
        <TextField field={fields.due_date} label="Due date" type="date" />
        <TextField field={fields.currency} label="Currency" hint="Three letters, e.g. EUR" />
        <TextField field={fields.subtotal} label="Subtotal" inputMode="decimal" />
        <TextField field={fields.tax} label="Tax" inputMode="decimal" />
        <TextField field={fields.total} label="Total" inputMode="decimal" />
      </div>
      <TextareaField field={fields.notes} label="Notes" rows={2} />
      <SubmitButton intent="update" label="Save Changes" busyLabel="Saving..." className="justify-self-end" />
    </Form>
  );
}
