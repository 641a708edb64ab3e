// The line items of a draft's edit form (quotes and invoices): description,
// quantity and unit price per line; add, remove and move are Conform's list
// intents as submit buttons, so with JavaScript Conform applies them in the
// browser and without it the server does and answers with the form as it now
// is, nothing typed lost.
import type { FieldMetadata, FormMetadata } from '@conform-to/react';
import { ArrowDown, ArrowUp, Plus, Trash2 } from '~/components/icons';
import { TextareaField, TextField } from '~/components/form-controls';
import { Button } from '~/components/ui/button';
import { parseMoneyToCents } from '~/lib/money';

type Field = FieldMetadata<unknown>;

export interface LineDefaults {
  description: string;
  quantity: string;
  unit_price: string;
}

const NEW_LINE: LineDefaults = { description: '', quantity: '1', unit_price: '' };

/** What the editor needs of the form: its list intents. */
type ListIntents = Pick<FormMetadata<{ items: LineDefaults[] }, string[]>, 'insert' | 'remove' | 'reorder'>;

export function LineItemsEditor({
  form,
  items,
  max,
  maxNote,
}: {
  form: ListIntents;
  items: FieldMetadata<LineDefaults[], { items: LineDefaults[] }, string[]>;
  max: number;
  /** Said instead of Add line once the list is full. */
  maxNote: string;
}) {
  const lines = items.getFieldList();
  return (
    <section aria-labelledby="lines-heading" className="grid gap-3">
      <h2 id="lines-heading" className="text-lg font-semibold">
        Line items
      </h2>
      <div id={items.errorId} className="text-sm text-destructive" aria-live="polite">
        {items.errors?.map((error) => <p key={error}>{error}</p>)}
      </div>
      <ol className="grid gap-3">
        {lines.map((item, index) => {
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
                    <Button variant="outline" size="sm" {...form.reorder.getButtonProps({ name: items.name, from: index, to: index - 1 })} aria-label={`Move line ${index + 1} up`}>
                      <ArrowUp className="size-4" aria-hidden="true" /> Move up
                    </Button>
                  ) : null}
                  {index < lines.length - 1 ? (
                    <Button variant="outline" size="sm" {...form.reorder.getButtonProps({ name: items.name, from: index, to: index + 1 })} aria-label={`Move line ${index + 1} down`}>
                      <ArrowDown className="size-4" aria-hidden="true" /> Move down
                    </Button>
                  ) : null}
                  {/* A draft keeps at least one line. */}
                  {lines.length > 1 ? (
                    <Button variant="ghost" size="sm" {...form.remove.getButtonProps({ name: items.name, index })} aria-label={`Remove line ${index + 1}`}>
                      <Trash2 className="size-4" aria-hidden="true" /> Remove
                    </Button>
                  ) : null}
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {lines.length < max ? (
        <Button variant="outline" className="justify-self-start" {...form.insert.getButtonProps({ name: items.name, defaultValue: NEW_LINE })}>
          <Plus className="size-4" aria-hidden="true" /> Add line
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">{maxNote}</p>
      )}
    </section>
  );
}

export interface EstimatedAmounts {
  subtotal: number;
  discount: number;
  discountAmount: number;
  taxRate: number;
  taxAmount: number;
  total: number;
}

/** The amounts as typed so far (the form's value), rounded as the database will (half-up to the cent). */
export function estimateAmounts(form: Record<string, unknown> | undefined): EstimatedAmounts {
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
  return { subtotal, discount, discountAmount, taxRate, taxAmount, total: subtotal - discountAmount + taxAmount };
}
