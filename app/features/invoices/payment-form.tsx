import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { SelectField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { minorUnits } from '~/lib/currencies';
import { PAYMENT_METHOD_OPTIONS, paymentSchema } from './schema';

/**
 * Record payment (a partial or the full balance), in the invoice's currency.
 * A plain post to the invoice's page; refused input comes back under its field.
 */
export function PaymentForm({
  action,
  currency,
  balance,
  today,
  lastResult,
}: {
  action: string;
  currency: string;
  /** The balance due, as typed (e.g. '150.00'): the amount's default. */
  balance: string;
  /** Today in the account's time zone (the day the database dates payments by): the date's default. */
  today: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSchemaForm(paymentSchema, {
    id: 'record-payment',
    lastResult,
    defaultValue: { intent: 'pay', amount: balance, paid_on: today, method: 'bank_transfer', currency },
  });
  // A currency without cents (JPY) is paid in whole units.
  const step = minorUnits(currency) === 0 ? '1' : '0.01';
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="pay" />
      <input type="hidden" name="currency" value={currency} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.amount} label={`Amount (${currency})`} type="number" step={step} min={step} inputMode="decimal" />
        <TextField field={fields.paid_on} label="Paid on" type="date" />
        <SelectField field={fields.method} label="Method" options={PAYMENT_METHOD_OPTIONS} />
        <TextField field={fields.reference} label="Reference (optional)" />
      </div>
      {fields.currency.errors ? (
        <p className="text-sm text-destructive" role="alert">
          {fields.currency.errors.join(' ')}
        </p>
      ) : null}
      <div>
        <SubmitButton intent="pay" label="Record payment" busyLabel="Recording..." />
      </div>
    </Form>
  );
}
