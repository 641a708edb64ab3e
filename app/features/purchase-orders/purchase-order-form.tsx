// The New Purchase Order dialog's form: the supplier, currency, expected date,
// notes and the line items (the kit's editor: Conform's list intents, which the
// server applies without JavaScript). Posts to /purchase-orders?new, so a
// refused form comes back open and filled in.
import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField } from '~/components/form-controls';
import { FormAlert } from '~/components/form-alert';
import { LineItemsEditor, type LineDefaults } from '~/components/records/line-items-editor';
import { SubmitButton } from '~/components/submit-button';
import { MAX_PO_ITEMS, newPurchaseOrderSchema, PO_CURRENCY_OPTIONS } from './schema';

type Field = FieldMetadata<unknown>;

// A type alias (not an interface): Conform's form type wants an index signature.
type PoDefaults = { supplier_name: string; supplier_email: string; supplier_user_id: string; currency: string; expected_on: string; notes: string; items: LineDefaults[] };
const DEFAULTS: PoDefaults = { supplier_name: '', supplier_email: '', supplier_user_id: '', currency: 'USD', expected_on: '', notes: '', items: [{ description: '', quantity: '1', unit_price: '' }] };

type SupplierLoginOption = { id: string; email: string; first_name: string | null; last_name: string | null };

/** '' (nobody) first, then each supplier login by name and address. */
function loginOptions(logins: readonly SupplierLoginOption[]) {
  return [
    { value: '', label: 'None (matched by the supplier email)' },
    ...logins.map((login) => {
      const name = [login.first_name, login.last_name].filter(Boolean).join(' ');
      return { value: login.id, label: name ? `${name} (${login.email})` : login.email };
    }),
  ];
}

export function NewPurchaseOrderForm({
  closeTo,
  lastResult,
  supplierLogins = [],
}: {
  closeTo: string;
  lastResult?: SubmissionResult<string[]>;
  supplierLogins?: readonly SupplierLoginOption[];
}) {
  const [form, fields] = useForm({
    id: 'new-purchase-order',
    lastResult,
    defaultValue: DEFAULTS,
    constraint: getZodConstraint(newPurchaseOrderSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newPurchaseOrderSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const currency = typeof fields.currency.value === 'string' ? fields.currency.value : 'USD';
  return (
    <Form method="post" action="/purchase-orders?new" className="grid gap-4" {...getFormProps(form)}>
      {/* Enter in a field submits with the first submit button: make that Create, not a line's Move down. */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      <FormAlert id={`${form.id}-alert`} title="The purchase order was not created" errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.supplier_name as Field} label="Supplier" autoComplete="organization" />
        <TextField field={fields.supplier_email as Field} label="Supplier email (optional)" type="email" hint="Where Send mails the order" />
        <SelectField
          field={fields.supplier_user_id as Field}
          label="Supplier login (optional)"
          options={loginOptions(supplierLogins)}
          hint="Who sees and confirms it in the supplier portal; their address is used when no email is typed"
        />
        <SelectField field={fields.currency as Field} label="Currency" options={PO_CURRENCY_OPTIONS} />
        <TextField field={fields.expected_on as Field} label="Expected on (optional)" type="date" />
      </div>
      <LineItemsEditor
        form={form}
        items={fields.items}
        max={MAX_PO_ITEMS}
        maxNote={`A purchase order has at most ${MAX_PO_ITEMS} line items.`}
        currency={currency}
      />
      <TextareaField field={fields.notes as Field} label="Notes (optional)" rows={2} />
      <DialogActions closeTo={closeTo}>
        <SubmitButton label="Create Purchase Order" busyLabel="Creating..." />
      </DialogActions>
    </Form>
  );
}
