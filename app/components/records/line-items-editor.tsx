// The line items of a draft's edit form (quotes and invoices): one row per
// line — description, quantity, unit price, the line's total, move and
// remove — as Invoice Ninja and Stripe lay them out (issue 32). Add, remove and
// move are Conform's list intents as submit buttons, so with JavaScript Conform
// applies them in the browser and without it the server does and answers with
// the form as it now is, nothing typed lost. Each row is a group named
// "Line N" whose inputs keep their own labels (read to screen readers; the
// column heads say them on screen), so a line is found as a person finds it.
import type { FieldMetadata, FormMetadata } from '@conform-to/react';
import { getInputProps, getTextareaProps } from '@conform-to/react';
import { ArrowDown, ArrowUp, Plus, Trash2 } from '~/components/icons';
import { Button } from '~/components/ui/button';
import { Input, Textarea } from '~/components/ui/input';
import { isCurrency } from '~/lib/currencies';
import { formatMoney, parseMoneyToCents } from '~/lib/money';

export interface LineDefaults {
  description: string;
  quantity: string;
  unit_price: string;
}

const NEW_LINE: LineDefaults = { description: '', quantity: '1', unit_price: '' };

/** What the editor needs of the form: its list intents. */
type ListIntents = Pick<FormMetadata<{ items: LineDefaults[] }, string[]>, 'insert' | 'remove' | 'reorder'>;

/** The columns of a line; the header row and each line share them, so the heads sit over their inputs. */
const COLUMNS = 'grid grid-cols-[minmax(0,1fr)_4.5rem_6.5rem] gap-2 md:grid-cols-[minmax(0,1fr)_5rem_7rem_7rem_7.5rem] md:items-start';

/** A line's total as typed (quantity × unit price), or nothing while either is not a number yet. */
function lineTotal(quantity: unknown, unitPrice: unknown, currency: string): string {
  const cents = parseMoneyToCents(String(unitPrice ?? ''));
  const qty = Number(quantity);
  // The form's currency is what was posted: a value off the list (a refused form) shows no total rather than failing the page.
  if (cents === null || !Number.isInteger(qty) || qty <= 0 || !isCurrency(currency)) return '—';
  return formatMoney(cents * qty, currency);
}

export function LineItemsEditor({
  form,
  items,
  max,
  maxNote,
  currency = 'USD',
}: {
  form: ListIntents;
  items: FieldMetadata<LineDefaults[], { items: LineDefaults[] }, string[]>;
  max: number;
  /** Said instead of Add line once the list is full. */
  maxNote: string;
  /** The currency the line totals are shown in. */
  currency?: string;
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
      <div className="grid rounded-md border border-border">
        {/* The column heads, for the eye: each input carries its own label. */}
        <div aria-hidden="true" className={`${COLUMNS} border-b border-border bg-muted/50 px-3 py-2 text-xs font-medium text-muted-foreground`}>
          <span>Description</span>
          <span className="hidden text-right md:block">Qty</span>
          <span className="hidden text-right md:block">Unit price</span>
          <span className="hidden text-right md:block">Total</span>
          <span className="sr-only md:not-sr-only" />
        </div>
        <ol className="grid divide-y divide-border">
          {lines.map((item, index) => {
            const line = item.getFieldset();
            const n = index + 1;
            const fields = [line.description, line.quantity, line.unit_price];
            return (
              <li key={item.key} className="hover:bg-muted/30">
                <fieldset className={`${COLUMNS} min-w-0 px-3 py-2`}>
                <legend className="sr-only">Line {n}</legend>
                <div className="col-span-3 grid min-w-0 gap-1 md:col-span-1">
                  <label htmlFor={line.description.id} className="sr-only">
                    Description
                  </label>
                  <Textarea {...cellProps(getTextareaProps(line.description))} key={line.description.key} rows={1} className="min-h-9 resize-y py-1.5" placeholder="Description" />
                </div>
                <div className="grid gap-1">
                  <label htmlFor={line.quantity.id} className="text-xs text-muted-foreground md:sr-only">
                    Quantity
                  </label>
                  <Input {...cellProps(getInputProps(line.quantity, { type: 'number' }))} key={line.quantity.key} step="1" min="1" className="h-9 text-right tabular-nums" />
                </div>
                <div className="grid gap-1">
                  <label htmlFor={line.unit_price.id} className="text-xs text-muted-foreground md:sr-only">
                    Unit price
                  </label>
                  <Input {...cellProps(getInputProps(line.unit_price, { type: 'number' }))} key={line.unit_price.key} step="0.01" min="0" inputMode="decimal" className="h-9 text-right tabular-nums" />
                </div>
                <div className="grid gap-1 md:h-9 md:content-center">
                  <span className="text-xs text-muted-foreground md:sr-only">Total</span>
                  <span className="text-right text-sm tabular-nums">{lineTotal(line.quantity.value, line.unit_price.value, currency)}</span>
                </div>
                <div className="col-span-2 flex items-center justify-end gap-1 self-end md:col-span-1 md:h-9 md:self-start">
                  {index > 0 ? (
                    <Button variant="ghost" size="icon" className="size-9" {...form.reorder.getButtonProps({ name: items.name, from: index, to: index - 1 })} aria-label={`Move line ${n} up`} title="Move up">
                      <ArrowUp className="size-4" aria-hidden="true" />
                    </Button>
                  ) : (
                    <span className="size-9" aria-hidden="true" />
                  )}
                  {index < lines.length - 1 ? (
                    <Button variant="ghost" size="icon" className="size-9" {...form.reorder.getButtonProps({ name: items.name, from: index, to: index + 1 })} aria-label={`Move line ${n} down`} title="Move down">
                      <ArrowDown className="size-4" aria-hidden="true" />
                    </Button>
                  ) : (
                    <span className="size-9" aria-hidden="true" />
                  )}
                  {/* A draft keeps at least one line. */}
                  {lines.length > 1 ? (
                    <Button variant="ghost" size="icon" className="size-9 text-destructive" {...form.remove.getButtonProps({ name: items.name, index })} aria-label={`Remove line ${n}`} title="Remove">
                      <Trash2 className="size-4" aria-hidden="true" />
                    </Button>
                  ) : (
                    <span className="size-9" aria-hidden="true" />
                  )}
                </div>
                {/* A line's errors under it, across the row. */}
                {fields.some((field) => field.errors?.length) ? (
                  <div className="col-span-3 text-sm text-destructive md:col-span-5">
                    {fields.map((field) => (
                      <div key={field.id} id={field.errorId} aria-live="polite">
                        {field.errors?.map((error) => <p key={error}>{error}</p>)}
                      </div>
                    ))}
                  </div>
                ) : (
                  fields.map((field) => <div key={field.id} id={field.errorId} className="hidden" aria-live="polite" />)
                )}
                </fieldset>
              </li>
            );
          })}
        </ol>
      </div>
      {lines.length < max ? (
        <Button variant="outline" size="sm" className="justify-self-start" {...form.insert.getButtonProps({ name: items.name, defaultValue: NEW_LINE })}>
          <Plus className="size-4" aria-hidden="true" /> Add line
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">{maxNote}</p>
      )}
    </section>
  );
}

/** Conform's props without the React key it hands back (a key is not a prop to spread). */
function cellProps<T extends { key?: string | undefined }>(props: T): Omit<T, 'key'> {
  const { key: _key, ...rest } = props;
  return rest;
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
