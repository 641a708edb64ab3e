import { formatMoney } from '~/lib/money';

/** A percentage as stored (numeric): 12.5 → '12.5%'. */
export const formatPercent = (value: number | string) => `${Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;

export interface QuoteAmounts {
  currency: string;
  subtotal: number;
  discount: number | string;
  discount_amount: number;
  tax_rate: number | string;
  tax_amount: number;
  total: number;
}

/** Subtotal, discount, tax and total, all in the quote's one currency, as the database computed them. */
export function QuoteTotals({ amounts }: { amounts: QuoteAmounts }) {
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
