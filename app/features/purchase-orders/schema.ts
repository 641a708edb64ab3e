// A purchase order (issue 36): the supplier (name, optional email to send it
// to), the currency, when it is expected, notes and its line items (the kit's
// editor). Totals, number and status are the database's.
import { z } from '~/lib/schemas/zod';
import { CURRENCY_CODES, CURRENCY_OPTIONS, fitsCurrency } from '~/lib/currencies';
import { moneyInCents, oneOf, optionalEmail, optionalText, requiredText, wholeAmountMessage, type Option } from '~/lib/schemas/fields';

export const PO_STATUSES = ['draft', 'sent', 'confirmed', 'received', 'cancelled'] as const;
export type PoStatus = (typeof PO_STATUSES)[number];
export const PO_STATUS_LABELS: Record<PoStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  confirmed: 'Confirmed',
  received: 'Received',
  cancelled: 'Cancelled',
};
export const PO_STATUS_OPTIONS: Option<PoStatus>[] = PO_STATUSES.map((value) => ({ value, label: PO_STATUS_LABELS[value] }));
export const PO_CURRENCY_OPTIONS: Option[] = CURRENCY_OPTIONS;
export const MAX_PO_ITEMS = 100;
export const SUPPLIER_LOGIN_MESSAGE = "Choose one of the account's suppliers";

const poItemSchema = z.object({
  description: requiredText('Description', 500),
  unit_price: moneyInCents('Unit price').refine((cents) => cents <= 100_000_000_000_000, 'Unit price is too large'),
  quantity: z
    .number({ error: (issue) => (issue.input === undefined ? 'Quantity is required' : 'Quantity must be a whole number of at least 1') })
    .int('Quantity must be a whole number of at least 1')
    .min(1, 'Quantity must be at least 1')
    .max(1_000_000, 'Quantity is too large'),
});

export const newPurchaseOrderSchema = z
  .object({
    supplier_name: requiredText('Supplier', 200),
    supplier_email: optionalEmail(),
    // The supplier login who sees and confirms it in their portal (one of SUPPLIER_LOGINS; the database checks it).
    supplier_user_id: z.uuid({ error: SUPPLIER_LOGIN_MESSAGE }).optional(),
    currency: oneOf(CURRENCY_CODES, 'Currency').default('USD'),
    expected_on: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date')
      .optional(),
    notes: optionalText('Notes', 5000),
    items: z
      .array(poItemSchema, { error: 'Add at least one line item' })
      .min(1, 'Add at least one line item')
      .max(MAX_PO_ITEMS, `A purchase order has at most ${MAX_PO_ITEMS} line items`),
  })
  .superRefine((po, ctx) => {
    po.items.forEach((item, index) => {
      if (!fitsCurrency(item.unit_price, po.currency)) {
        ctx.addIssue({ code: 'custom', path: ['items', index, 'unit_price'], message: wholeAmountMessage('Unit price', po.currency) });
      }
    });
  });

export type NewPurchaseOrder = z.output<typeof newPurchaseOrderSchema>;

/** The record page's intents; receive names each line's quantity as received.<item id> (readReceived). */
export const purchaseOrderActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('send') }),
  z.object({ intent: z.literal('confirm') }),
  z.object({ intent: z.literal('cancel') }),
  z.object({ intent: z.literal('receive-all') }),
  z.object({ intent: z.literal('receive') }),
]);

/** The part received: each line's field received.<item id>, a whole number of 0 or more; null when one is not. */
export function readReceived(formData: FormData): Record<string, number> | null {
  const received: Record<string, number> = {};
  for (const [name, value] of formData) {
    if (!name.startsWith('received.')) continue;
    const id = name.slice('received.'.length);
    const text = String(value).trim();
    if (text === '') continue;
    if (!/^[0-9a-f-]{36}$/i.test(id) || !/^\d{1,7}$/.test(text)) return null;
    if (Number(text) > 0) received[id] = Number(text);
  }
  return received;
}
