// The bills module's forms (decision 048): a bill's edit and its payment date,
// each a plain post to the bill's page told apart by its intent. Relative
// imports only: the unit tests load this in Node.
import { z } from '~/lib/schemas/zod';
import { isRealDate, moneyInCents, optionalText, requiredText } from '~/lib/schemas/fields';

export const BILL_STATUSES = ['to_pay', 'paid'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];
export const BILL_STATUS_LABELS: Record<BillStatus, string> = { to_pay: 'To pay', paid: 'Paid' };
export const BILL_STATUS_OPTIONS = BILL_STATUSES.map((value) => ({ value, label: BILL_STATUS_LABELS[value] }));

/** Today as YYYY-MM-DD in UTC, plus `days`. */
const isoDay = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const optionalDate = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || isRealDate(value), `${label} must be a date`)
    .transform((value) => value || null);

const optionalAmount = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(moneyInCents(label).optional())
    .transform((value) => value ?? null);

export const editBillSchema = z
  .object({
    intent: z.literal('update'),
    supplier_name: requiredText('Supplier', 200),
    supplier_email: z
      .string()
      .trim()
      .optional()
      .refine((value) => !value || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value), 'Enter a valid email address')
      .transform((value) => (value ? value.toLowerCase() : null)),
    supplier_tax_id: optionalText('Tax ID', 50).transform((value) => value || null),
    number: optionalText('Number', 100).transform((value) => value || null),
    issue_date: optionalDate('Issue date'),
    due_date: optionalDate('Due date'),
    currency: z
      .string({ error: 'Currency is required' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, 'Currency must be three letters, e.g. EUR'),
    subtotal: optionalAmount('Subtotal'),
    tax: optionalAmount('Tax'),
    total: moneyInCents('Total').refine((cents) => cents > 0, 'Total must be more than zero'),
    notes: optionalText('Notes', 5000).transform((value) => value || null),
  })
  .superRefine((bill, ctx) => {
    if (bill.issue_date && bill.due_date && bill.due_date < bill.issue_date) {
      ctx.addIssue({ code: 'custom', path: ['due_date'], message: 'The due date cannot be before the issue date' });
    }
  });
export type EditedBill = z.output<typeof editBillSchema>;

export const payBillSchema = z.object({
  intent: z.literal('pay'),
  paid_on: z
    .string({ error: 'Payment date is required' })
    .trim()
    .refine((value) => isRealDate(value), 'Payment date must be a date')
    // The database has the last word (its today); a day of grace for time zones east of UTC.
    .refine((value) => !isRealDate(value) || value <= isoDay(1), 'The payment date cannot be in the future'),
});

export const billActionSchema = z.discriminatedUnion('intent', [editBillSchema, payBillSchema, z.object({ intent: z.literal('delete') })]);
