import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { earliestToday } from '~/lib/schemas/fields';
import { DEFAULT_INVOICE_CURRENCY, DEFAULT_INVOICE_QUANTITY, INVOICE_CURRENCY_OPTIONS, newInvoiceSchema } from './schema';

/**
 * The New Invoice dialog's form (the product guide's fields). Posts to /invoices?new, so
 * a failure re-renders it open and filled in. The client is matched to a
 * contact of the account by email, or becomes a new one.
 */
export function NewInvoiceForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(newInvoiceSchema, {
    id: 'new-invoice',
    lastResult,
    defaultValue: { quantity: String(DEFAULT_INVOICE_QUANTITY), currency: DEFAULT_INVOICE_CURRENCY },
  });
  return (
    <Form method="post" action="/invoices?new" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.client_name} label="Client name" autoComplete="organization" />
        <TextField field={fields.client_email} label="Client email" type="email" autoComplete="email" />
      </div>
      <TextareaField field={fields.description} label="Description" rows={2} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField field={fields.unit_price} label="Unit price" type="number" step="0.01" min="0" inputMode="decimal" />
        <TextField field={fields.quantity} label="Quantity" type="number" step="1" min="1" />
        <SelectField field={fields.currency} label="Currency" options={INVOICE_CURRENCY_OPTIONS} />
      </div>
      <TextField field={fields.due_date} label="Due date" type="date" min={earliestToday()} />
      <TextareaField field={fields.notes} label="Notes (optional)" rows={2} />
      <DialogActions closeTo="/invoices">
        <SubmitButton label="Create Invoice" busyLabel="Creating..." />
      </DialogActions>
    </Form>
  );
}
