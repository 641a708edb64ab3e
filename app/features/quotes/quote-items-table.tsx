import { formatMoney } from '~/lib/money';

interface Line {
  id: string;
  description: string;
  qty: number;
  unit_price: number;
  total: number;
}

/** A quote's line items in their order, each amount in the quote's currency. */
export function QuoteItemsTable({ items, currency, labelledBy }: { items: Line[]; currency: string; labelledBy: string }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">No line items.</p>;
  return (
    <div className="overflow-x-auto">
      <table aria-labelledby={labelledBy} className="w-full text-sm">
        <thead>
          <tr className="border-b border-border text-left text-muted-foreground">
            <th scope="col" className="py-2 pr-4 font-medium">Description</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Qty</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Unit price</th>
            <th scope="col" className="py-2 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} className="border-b border-border align-top last:border-0">
              <td className="whitespace-pre-line break-words py-2 pr-4">{item.description}</td>
              <td className="py-2 pr-4 text-right">{item.qty.toLocaleString('en-US')}</td>
              <td className="py-2 pr-4 text-right">{formatMoney(Number(item.unit_price), currency)}</td>
              <td className="py-2 text-right">{formatMoney(Number(item.total), currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
