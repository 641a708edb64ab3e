// A draft's edit form: client, currency, expiry, notes, tax and discount, and
// its line items. Add, remove and move are Conform's list intents as submit
// buttons: with JavaScript Conform applies them in the browser; without it
// the server applies them and answers with the form as it now is, nothing
// typed lost. The amounts shown while typing are an estimate; the saved ones
// are computed by the database.
import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { Form } from 'react-router';
import { SelectField, TextareaField, TextField } from '~/components/form-controls';
import { FormAlert } from '~/components/form-alert';
import { SubmitButton } from '~/components/submit-button';
import { Button, buttonClasses } from '~/components/ui/button';
import { Link } from 'react-router';
import { parseMoneyToCents } from '~/lib/money';
import type { Option } from '~/lib/schemas/fields';
import { useHydrated } from '~/lib/use-hydrated';
import { QuoteTotals } from './quote-totals';
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
  items: { description: string; quantity: string; unit_price: string }[];
};

const NEW_LINE = { description: '', quantity: '1', unit_price: '' };

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
  const items = fields.items.getFieldList();
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

      <section aria-labelledby="lines-heading" className="grid gap-3">
        <h2 id="lines-heading" className="text-lg font-semibold">
          Line items
        </h2>
        <div id={fields.items.errorId} className="text-sm text-destructive" aria-live="polite">
          {fields.items.errors?.map((error) => <p key={error}>{error}</p>)}
        </div>
        <ol className="grid gap-3">
          {items.map((item, index) => {
            const line = item.getFieldset();
            return (
              <li key={item.key}>
                <fieldset className="grid gap-3 rounded-md border border-border p-3">
                  <legend className="px-1 text-sm font-medium">Line {index + 1}</legend>
                  <TextareaField field={line.description as Field} label="Description" rows={2} />
                  <div className="grid gap-3 sm:grid-cols-2">
                    <TextField field={line.quantity as Field} label="Quantity" type="number" step="1" min="1" />
                    <TextField field={line.unit_price as Field} label="Unit price" type="number" step="0.01" min="0" inputMode="decimal" />
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {index > 0 ? (
                      <Button variant="outline" size="sm" {...form.reorder.getButtonProps({ name: fields.items.name, from: index, to: index - 1 })} aria-label={`Move line ${index + 1} up`}>
                        <ArrowUp className="size-4" aria-hidden="true" /> Move up
                      </Button>
                    ) : null}
                    {index < items.length - 1 ? (
                      <Button variant="outline" size="sm" {...form.reorder.getButtonProps({ name: fields.items.name, from: index, to: index + 1 })} aria-label={`Move line ${index + 1} down`}>
                        <ArrowDown className="size-4" aria-hidden="true" /> Move down
                      </Button>
                    ) : null}
                    {/* A quote keeps at least one line. */}
                    {items.length > 1 ? (
                      <Button variant="ghost" size="sm" {...form.remove.getButtonProps({ name: fields.items.name, index })} aria-label={`Remove line ${index + 1}`}>
                        <Trash2 className="size-4" aria-hidden="true" /> Remove
                      </Button>
                    ) : null}
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
        {items.length < MAX_QUOTE_ITEMS ? (
          <Button variant="outline" className="justify-self-start" {...form.insert.getButtonProps({ name: fields.items.name, defaultValue: NEW_LINE })}>
            <Plus className="size-4" aria-hidden="true" /> Add line
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">A quote has at most {MAX_QUOTE_ITEMS} line items.</p>
        )}
      </section>

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

/** The amounts as typed so far, rounded as the database will (half-up to the cent). */
function EstimatedTotals({ form, currency }: { form: Record<string, unknown> | undefined; currency: string }) {
  const lines = Array.isArray(form?.items) ? (form.items as Record<string, unknown>[]) : [];
  const subtotal = lines.reduce((sum, line) => {
    const cents = parseMoneyToCents(String(line?.unit_price ?? ''));
    const qty = Number(line?.quantity);
    return cents !== null && Number.isInteger(qty) && qty > 0 ? sum + cents * qty : sum;
  }, 0);
  const rate = (value: unknown) => {
    const n = Number(value ?? 0);
    return Number.isFinite(n) && n >= 0 && n <= 100 ? n : 0;
  };
  const discount = rate(form?.discount);
  const taxRate = rate(form?.tax_rate);
  const discountAmount = Math.round((subtotal * discount) / 100);
  const taxAmount = Math.round(((subtotal - discountAmount) * taxRate) / 100);
  return (
    <div className="grid gap-1" aria-live="polite">
      <p className="text-sm text-muted-foreground">Totals as typed (saved totals are computed when you save)</p>
      <QuoteTotals
        amounts={{ currency, subtotal, discount, discount_amount: discountAmount, tax_rate: taxRate, tax_amount: taxAmount, total: subtotal - discountAmount + taxAmount }}
      />
    </div>
  );
}
