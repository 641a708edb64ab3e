import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import {
  DEFAULT_QUOTE_CURRENCY,
  DEFAULT_QUOTE_EXPIRY_DAYS,
  newQuoteSchema,
  QUOTE_CURRENCY_OPTIONS,
  QUOTE_EXPIRY_OPTIONS,
} from '~/features/quotes/schema';

/** The create-quote dialog's form (docs/product-guide.md). Posts to /quotes?new, so a failure re-renders it open and filled in. */
export function NewQuoteForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useSchemaForm(newQuoteSchema, {
    id: 'new-quote',
    lastResult,
    defaultValue: { quantity: '1', currency: DEFAULT_QUOTE_CURRENCY, expires_in_days: String(DEFAULT_QUOTE_EXPIRY_DAYS) },
  });
  return (
    <Form method="post" action="/quotes?new" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.contact_name} label="Contact name" autoComplete="name" />
        <TextField field={fields.contact_email} label="Contact email" type="email" autoComplete="email" />
      </div>
      <TextField field={fields.company} label="Company" autoComplete="organization" />
      <TextareaField field={fields.description} label="Description" rows={3} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.unit_price} label="Unit price" type="number" step="0.01" min="0" inputMode="decimal" />
        <TextField field={fields.quantity} label="Quantity" type="number" step="1" min="1" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.currency} label="Currency" options={QUOTE_CURRENCY_OPTIONS} />
        <SelectField field={fields.expires_in_days} label="Expires in" options={QUOTE_EXPIRY_OPTIONS} />
      </div>
      <TextareaField field={fields.notes} label="Notes" rows={2} />
      <SubmitButton label="Create Quote" busyLabel="Creating..." className="justify-self-end" />
    </Form>
  );
}
