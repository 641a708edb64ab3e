// The line items of a quote or an invoice, in their order, each amount in the
// document's currency: on the staff's pages and on the public pages alike.
import { formatMoney } from '~/lib/money';

interface Line {
  id?: string;
  description: string;
  qty: number;
  unit_price: number;
  total: number;
}

interface Props {
  items: readonly Line[];
  currency: string;
  /** The id of the heading that names the table; without one, `caption` (read to screen readers only). */
  labelledBy?: string;
  caption?: string;
}

export function LineItemsTable({ items, currency, labelledBy, caption = 'Line items' }: Props) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">No line items.</p>;
  return (
    <div className="overflow-x-auto">
      <table aria-labelledby={labelledBy} className="w-full text-sm">
        {labelledBy ? null : <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr className="border-b border-border text-left text-muted-foreground">
            <th scope="col" className="py-2 pr-4 font-medium">Description</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Qty</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Unit price</th>
            <th scope="col" className="py-2 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <tr key={item.id ?? index} className="border-b border-border align-top last:border-0">
              <td className="whitespace-pre-line break-words py-2 pr-4">{item.description}</td>
              <td className="py-2 pr-4 text-right">{Number(item.qty).toLocaleString('en-US')}</td>
              <td className="py-2 pr-4 text-right">{formatMoney(Number(item.unit_price), currency)}</td>
              <td className="py-2 text-right">{formatMoney(Number(item.total), currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
