// A draft invoice's edit form: due date, tax and discount, notes, and its line
// items (the shared editor: Conform's list intents, with and without
// JavaScript). The client and currency stay as the invoice was made. The
// amounts shown while typing are an estimate; the saved ones are computed by
// the database.
import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { TextareaField, TextField } from '~/components/form-controls';
import { FormAlert } from '~/components/form-alert';
import { LineItemsEditor, type LineDefaults } from '~/components/records/line-items-editor';
import { EstimatedTotals } from '~/components/records/record-totals';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { useHydrated } from '~/lib/use-hydrated';
import { earliestToday } from '~/lib/schemas/fields';
import { editInvoiceSchema, MAX_INVOICE_ITEMS } from './schema';

type Field = FieldMetadata<unknown>;

// A type alias (not an interface): Conform's form type wants an index signature.
export type InvoiceEditDefaults = {
  due_date: string;
  notes: string;
  tax_rate: string;
  discount: string;
  items: LineDefaults[];
};

export function InvoiceEditForm({
  action,
  cancelTo,
  currency,
  lastResult,
  defaultValue,
}: {
  action: string;
  cancelTo: string;
  currency: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue: InvoiceEditDefaults;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: 'edit-invoice',
    lastResult,
    defaultValue,
    constraint: getZodConstraint(editInvoiceSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editInvoiceSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <Form method="post" action={action} className="grid gap-6" {...getFormProps(form)}>
      {/* Enter in a field submits with the form's first submit button: make that Save, not a line's Move down. */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      <FormAlert id={`${form.id}-alert`} title="The invoice was not saved" errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.due_date as Field} label="Due date" type="date" min={earliestToday()} />
        <div className="grid grid-cols-2 gap-4">
          <TextField field={fields.tax_rate as Field} label="Tax rate (%)" type="number" step="0.01" min="0" max="100" inputMode="decimal" />
          <TextField field={fields.discount as Field} label="Discount (%)" type="number" step="0.01" min="0" max="100" inputMode="decimal" />
        </div>
      </div>
      <TextareaField field={fields.notes as Field} label="Notes" rows={2} />

      <LineItemsEditor form={form} items={fields.items} max={MAX_INVOICE_ITEMS} maxNote={`An invoice has at most ${MAX_INVOICE_ITEMS} line items.`} currency={currency} />

      {hydrated ? <EstimatedTotals form={form.value} currency={currency} /> : null}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to={cancelTo} className={buttonClasses('outline')}>
          Cancel
        </Link>
        <SubmitButton label="Save invoice" busyLabel="Saving..." />
      </div>
    </Form>
  );
}
