import { formatMoney } from '~/lib/money';
import { estimateAmounts } from './line-items-editor';

/** A percentage as stored (numeric): 12.5 → '12.5%'. */
export const formatPercent = (value: number | string) => `${Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;

/** A quote's or an invoice's amounts, in cents of its one currency. */
export interface RecordAmounts {
  currency: string;
  subtotal: number;
  discount: number | string;
  discount_amount: number;
  tax_rate: number | string;
  tax_amount: number;
  total: number;
}

/** Subtotal, discount, tax and total, all in the record's one currency, as the database computed them. */
export function RecordTotals({ amounts }: { amounts: RecordAmounts }) {
  const money = (cents: number) => formatMoney(Number(cents), amounts.currency);
  return (
    <dl className="ml-auto grid w-full max-w-xs gap-1 text-sm">
      <div className="flex justify-between gap-4">
        <dt className="text-muted-foreground">Subtotal</dt>
        <dd>{money(amounts.subtotal)}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-muted-foreground">Discount ({formatPercent(amounts.discount)})</dt>
        <dd>{Number(amounts.discount_amount) > 0 ? `−${money(amounts.discount_amount)}` : money(0)}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-muted-foreground">Tax ({formatPercent(amounts.tax_rate)})</dt>
        <dd>{money(amounts.tax_amount)}</dd>
      </div>
      <div className="flex justify-between gap-4 border-t border-border pt-1 font-semibold">
        <dt>Total</dt>
        <dd>{money(amounts.total)}</dd>
      </div>
    </dl>
  );
}

/** The amounts as an edit form's lines are typed, rounded as the database will (half-up to the cent). */
export function EstimatedTotals({ form, currency }: { form: Record<string, unknown> | undefined; currency: string }) {
  const { subtotal, discount, discountAmount, taxRate, taxAmount, total } = estimateAmounts(form);
  return (
    <div className="grid gap-1" aria-live="polite">
      <p className="text-sm text-muted-foreground">Totals as typed (saved totals are computed when you save)</p>
      <RecordTotals amounts={{ currency, subtotal, discount, discount_amount: discountAmount, tax_rate: taxRate, tax_amount: taxAmount, total }} />
    </div>
  );
}
