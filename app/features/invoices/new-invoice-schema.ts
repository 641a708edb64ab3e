// New invoice (docs/product-guide.md): client name and email, description,
// unit price (step 0.01, minimum 0), quantity (minimum 1, default 1),
// currency (default USD), due date; notes optional.
import { z } from '~/lib/schemas/zod';
import { earliestToday, isRealDate, moneyInCents, oneOf, optionalText, requiredDate, requiredEmail, requiredText, wholeAmountMessage, type Option } from '~/lib/schemas/fields';
import { CURRENCY_CODES, CURRENCY_OPTIONS, fitsCurrency } from '../../lib/currencies.ts';

/** The product's one list (app/lib/currencies.ts). */
export const INVOICE_CURRENCIES = CURRENCY_CODES;
export const DEFAULT_INVOICE_CURRENCY = 'USD';
export const DEFAULT_INVOICE_QUANTITY = 1;
export const INVOICE_CURRENCY_OPTIONS: Option[] = CURRENCY_OPTIONS;

/** What the database says of a due date before today in the account's time zone; the forms say it too. */
export const PAST_DUE_DATE_MESSAGE = 'The due date cannot be in the past';

/** A due date as the forms take it: a real day, not before today (see earliestToday). */
export const dueDate = () => requiredDate('Due date').refine((day) => !isRealDate(day) || day >= earliestToday(), PAST_DUE_DATE_MESSAGE);

// 'void' joins the product guide's five: a voided invoice stays in the book (decision 029).
export const INVOICE_STATUSES = ['draft', 'sent', 'pending', 'paid', 'overdue', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const newInvoiceSchema = z.object({
  client_name: requiredText('Client name'),
  client_email: requiredEmail('Client email'),
  description: requiredText('Description', 2000),
  unit_price: moneyInCents('Unit price'),
  // The field starts at 1 (the form's default), but an emptied one is an error, not taken as 1.
  quantity: z
    .number({ error: (issue) => (issue.input === undefined ? 'Quantity is required' : 'Quantity must be a whole number of at least 1') })
    .int('Quantity must be a whole number of at least 1')
    .min(1, 'Quantity must be at least 1')
    .max(1_000_000, 'Quantity is too large'),
  currency: oneOf(INVOICE_CURRENCIES, 'Currency').default(DEFAULT_INVOICE_CURRENCY),
  due_date: dueDate(),
  notes: optionalText('Notes'),
}).superRefine((invoice, ctx) => {
  // ¥1,000.50 cannot be invoiced: JPY has no smaller unit.
  if (typeof invoice.unit_price === 'number' && !fitsCurrency(invoice.unit_price, invoice.currency)) {
    ctx.addIssue({ code: 'custom', path: ['unit_price'], message: wholeAmountMessage('Unit price', invoice.currency) });
  }
});

export type NewInvoice = z.output<typeof newInvoiceSchema>;

/** As docs/product-guide.md says: the amount is unit price times quantity, in cents. */
export function invoiceAmountCents(invoice: Pick<NewInvoice, 'unit_price' | 'quantity'>): number {
  return invoice.unit_price * invoice.quantity;
}
