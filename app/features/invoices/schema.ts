// The invoices module's forms: the New Invoice dialog (the product guide's fields, in
// app/features/invoices/new-invoice-schema.ts) and the actions of an invoice's page, each a
// plain form post told apart by its intent.
import { z } from '~/lib/schemas/zod';
import { isRealDate, moneyInCents, oneOf, optionalText, percentage, requiredText, wholeAmountMessage, type Option } from '~/lib/schemas/fields';
import { dueDate, INVOICE_CURRENCIES } from './new-invoice-schema';
import { fitsCurrency } from '../../lib/currencies.ts';

export {
  DEFAULT_INVOICE_CURRENCY,
  DEFAULT_INVOICE_QUANTITY,
  INVOICE_CURRENCIES,
  INVOICE_CURRENCY_OPTIONS,
  INVOICE_STATUSES,
  newInvoiceSchema,
  PAST_DUE_DATE_MESSAGE,
  type InvoiceStatus,
  type NewInvoice,
} from './new-invoice-schema';

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'other'] as const;
export const PAYMENT_METHOD_OPTIONS: Option[] = [
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'card', label: 'Card' },
  { value: 'cash', label: 'Cash' },
  { value: 'other', label: 'Other' },
];
export const methodLabel = (method: string) => PAYMENT_METHOD_OPTIONS.find((o) => o.value === method)?.label ?? method;

/** Today as YYYY-MM-DD in UTC, plus `days`. */
export function isoDay(days = 0, now = new Date()): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Today (YYYY-MM-DD) in this time zone (an account's); in UTC when there is none or it is unknown. */
export function dayIn(timeZone: string | null | undefined, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return isoDay(0, now);
  }
}

const paidOn = z
  .string({ error: 'Payment date is required' })
  .trim()
  .refine((value) => isRealDate(value), 'Payment date must be a date')
  // A day of grace, as the database allows: today east of UTC is tomorrow here.
  .refine((value) => !isRealDate(value) || value <= isoDay(1), 'Payment date cannot be in the future');

export const paymentSchema = z.object({
  intent: z.literal('pay'),
  amount: moneyInCents('Amount').refine((cents) => cents > 0, 'Amount must be more than zero'),
  paid_on: paidOn,
  method: oneOf(PAYMENT_METHODS, 'Method'),
  reference: optionalText('Reference', 200),
  // The invoice's currency, as the page showed it: a payment in another is refused by the database.
  currency: oneOf(INVOICE_CURRENCIES, 'Currency'),
}).superRefine((payment, ctx) => {
  if (typeof payment.amount === 'number' && !fitsCurrency(payment.amount, payment.currency)) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: wholeAmountMessage('Amount', payment.currency) });
  }
});

export const invoiceActionSchema = z.discriminatedUnion('intent', [
  paymentSchema,
  z.object({ intent: z.literal('send') }),
  z.object({ intent: z.literal('void') }),
  // Resend: the page's request id names the press, so a double post is one mail.
  z.object({ intent: z.literal('resend'), request: z.uuid() }),
  z.object({ intent: z.literal('copy_link') }),
]);

export type PaymentForm = z.output<typeof paymentSchema>;

// ---- A draft's edit form (/invoices/:id/edit) ----

export const MAX_INVOICE_ITEMS = 100;
/** invoice_items.unit_price's bound, in cents. */
const MAX_UNIT_PRICE_CENTS = 100_000_000_000;

/** A line item as the edit form sends it; the New Invoice dialog's rules for its one line. */
export const invoiceItemSchema = z.object({
  description: requiredText('Description', 2000),
  unit_price: moneyInCents('Unit price').refine((cents) => cents <= MAX_UNIT_PRICE_CENTS, 'Unit price is too large'),
  quantity: z
    .number({ error: (issue) => (issue.input === undefined ? 'Quantity is required' : 'Quantity must be a whole number of at least 1') })
    .int('Quantity must be a whole number of at least 1')
    .min(1, 'Quantity must be at least 1')
    .max(1_000_000, 'Quantity is too large'),
});

/** A draft as its edit page posts it: the client and currency stay as the invoice was made. */
export const editInvoiceSchema = z.object({
  due_date: dueDate(),
  notes: optionalText('Notes'),
  tax_rate: percentage('Tax rate'),
  discount: percentage('Discount'),
  items: z
    .array(invoiceItemSchema, { error: 'Add at least one line item' })
    .min(1, 'Add at least one line item')
    .max(MAX_INVOICE_ITEMS, `An invoice has at most ${MAX_INVOICE_ITEMS} line items`),
});

export type EditedInvoice = z.output<typeof editInvoiceSchema>;
