// A draft's edit form: client, currency, expiry, notes, tax and discount, and
// its line items (the shared editor: Conform's list intents, with and
// without JavaScript). The amounts shown while typing are an estimate; the
// saved ones are computed by the database.
import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { SelectField, TextareaField, TextField } from '~/components/form-controls';
import { FormAlert } from '~/components/form-alert';
import { SubmitButton } from '~/components/submit-button';
import { LineItemsEditor, type LineDefaults } from '~/components/records/line-items-editor';
import { EstimatedTotals } from '~/components/records/record-totals';
import { buttonClasses } from '~/components/ui/button';
import type { Option } from '~/lib/schemas/fields';
import { useHydrated } from '~/lib/use-hydrated';
import { editQuoteSchema, MAX_QUOTE_ITEMS, QUOTE_CURRENCY_OPTIONS, todayIso } from './schema';

type Field = FieldMetadata<unknown>;

// A type alias (not an interface): Conform's form type wants an index signature.
export type EditDefaults = {
  contact_id: string;
  currency: string;
  expires_on: string;
  notes: string;
  tax_rate: string;
  discount: string;
  items: LineDefaults[];
};

export function QuoteEditForm({
  action,
  cancelTo,
  lastResult,
  defaultValue,
  clients,
}: {
  action: string;
  cancelTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue: EditDefaults;
  clients: Option[];
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: 'edit-quote',
    lastResult,
    defaultValue,
    constraint: getZodConstraint(editQuoteSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editQuoteSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const currency = typeof fields.currency.value === 'string' ? fields.currency.value : defaultValue.currency;
  return (
    <Form method="post" action={action} className="grid gap-6" {...getFormProps(form)}>
      {/* Enter in a field submits with the form's first submit button: make that Save, not a line's Move down. */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      <FormAlert id={`${form.id}-alert`} title="The quote was not saved" errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.contact_id as Field} label="Client" options={clients} />
        <SelectField field={fields.currency as Field} label="Currency" options={QUOTE_CURRENCY_OPTIONS} />
        <TextField field={fields.expires_on as Field} label="Expiry date" type="date" min={todayIso()} />
        <div className="grid grid-cols-2 gap-4">
          <TextField field={fields.tax_rate as Field} label="Tax rate (%)" type="number" step="0.01" min="0" max="100" inputMode="decimal" />
          <TextField field={fields.discount as Field} label="Discount (%)" type="number" step="0.01" min="0" max="100" inputMode="decimal" />
        </div>
      </div>
      <TextareaField field={fields.notes as Field} label="Notes" rows={2} />

      <LineItemsEditor form={form} items={fields.items} max={MAX_QUOTE_ITEMS} maxNote={`A quote has at most ${MAX_QUOTE_ITEMS} line items.`} currency={currency} />

      {hydrated ? <EstimatedTotals form={form.value} currency={currency} /> : null}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to={cancelTo} className={buttonClasses('outline')}>
          Cancel
        </Link>
        <SubmitButton label="Save quote" busyLabel="Saving..." />
      </div>
    </Form>
  );
}
