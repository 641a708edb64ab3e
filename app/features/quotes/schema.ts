// New quote (docs/product-guide.md): contact name, email and company, one line item
// (description, unit price, quantity), currency (default USD), expiry in days
// (7, 14, 30 by default, or 60) and optional notes. Used by the dialog for
// validation in the browser and by the /quotes action on the server.
import { z } from '~/lib/schemas/zod';
import { moneyInCents, oneOf, optionalEmail, optionalText, percentage, requiredDate, requiredText, uuid, wholeAmountMessage, type Option } from '~/lib/schemas/fields';
import { CURRENCY_CODES, CURRENCY_OPTIONS, fitsCurrency } from '../../lib/currencies.ts';

/** The product's one list (app/lib/currencies.ts). */
export const QUOTE_CURRENCIES = CURRENCY_CODES;
export const DEFAULT_QUOTE_CURRENCY = 'USD';
export const QUOTE_CURRENCY_OPTIONS: Option[] = CURRENCY_OPTIONS;

export const QUOTE_EXPIRY_DAYS = [7, 14, 30, 60] as const;
export const DEFAULT_QUOTE_EXPIRY_DAYS = 30;
export const QUOTE_EXPIRY_OPTIONS: Option[] = QUOTE_EXPIRY_DAYS.map((days) => ({ value: String(days), label: `${days} days` }));

export const QUOTE_STATUSES = ['draft', 'sent', 'viewed', 'signed', 'declined', 'expired', 'superseded'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** quote_items.unit_price is a Postgres integer (cents). */
const MAX_UNIT_PRICE_CENTS = 2_147_483_647;

/** A contact field of a quote for a new client: required only when no existing client is chosen. */
const newClientOnly = (label: string, value: string | undefined, contactId: string | undefined) =>
  contactId !== undefined || (value !== undefined && value !== '') ? null : `${label} is required`;

export const newQuoteSchema = z
  .object({
    // An existing client of the account; when chosen, the contact fields are not used.
    contact_id: uuid.optional(),
    contact_name: optionalText('Contact name', 200),
    contact_email: optionalEmail(),
    company: optionalText('Company', 200),
    description: requiredText('Description', 2000),
    unit_price: moneyInCents('Unit price').refine((cents) => cents <= MAX_UNIT_PRICE_CENTS, 'Unit price is too large'),
    // The field starts at 1 (the form's default), but an emptied one is an error, not taken as 1.
    quantity: z
      .number({ error: (issue) => (issue.input === undefined ? 'Quantity is required' : 'Quantity must be a whole number of at least 1') })
      .int('Quantity must be a whole number of at least 1')
      .min(1, 'Quantity must be at least 1')
      .max(1_000_000, 'Quantity is too large'),
    currency: oneOf(QUOTE_CURRENCIES, 'Currency').default(DEFAULT_QUOTE_CURRENCY),
    expires_in_days: z
      .number({ error: 'Choose an expiry' })
      .refine((days) => (QUOTE_EXPIRY_DAYS as readonly number[]).includes(days), 'Choose an expiry')
      .default(DEFAULT_QUOTE_EXPIRY_DAYS),
    notes: optionalText('Notes'),
  })
  // Run even when other fields failed, so every missing contact field is said at once.
  .superRefine((quote, ctx) => {
    const contactId = typeof quote.contact_id === 'string' ? quote.contact_id : undefined;
    for (const [field, label] of [
      ['contact_name', 'Contact name'],
      ['contact_email', 'Contact email'],
      ['company', 'Company'],
    ] as const) {
      const value = quote[field];
      const message = newClientOnly(label, typeof value === 'string' ? value : undefined, contactId);
      if (message) ctx.addIssue({ code: 'custom', path: [field], message });
    }
    // ¥1,000.50 cannot be quoted: JPY has no smaller unit.
    if (typeof quote.unit_price === 'number' && typeof quote.currency === 'string' && !fitsCurrency(quote.unit_price, quote.currency)) {
      ctx.addIssue({ code: 'custom', path: ['unit_price'], message: wholeAmountMessage('Unit price', quote.currency) });
    }
  }, { when: () => true });

export type NewQuote = z.output<typeof newQuoteSchema>;

/** As docs/product-guide.md says: total = unit price × quantity, in cents; subtotal equals total. */
export function quoteTotalCents(quote: Pick<NewQuote, 'unit_price' | 'quantity'>): number {
  return quote.unit_price * quote.quantity;
}

// ---- A draft's edit form (/quotes/:id/edit) and a quote page's actions ----

export const MAX_QUOTE_ITEMS = 100;

/** A line item as the edit form sends it; the same rules as the create form's one item. */
export const quoteItemSchema = z.object({
  description: requiredText('Description', 2000),
  unit_price: moneyInCents('Unit price').refine((cents) => cents <= MAX_UNIT_PRICE_CENTS, 'Unit price is too large'),
  quantity: z
    .number({ error: (issue) => (issue.input === undefined ? 'Quantity is required' : 'Quantity must be a whole number of at least 1') })
    .int('Quantity must be a whole number of at least 1')
    .min(1, 'Quantity must be at least 1')
    .max(1_000_000, 'Quantity is too large'),
});

/** Today as YYYY-MM-DD (UTC): the earliest expiry a draft may be given. */
export const todayIso = () => new Date().toISOString().slice(0, 10);

export const editQuoteSchema = z.object({
  contact_id: z.uuid({ error: (issue) => (issue.input === undefined ? 'Choose a client' : 'Invalid id') }),
  currency: oneOf(QUOTE_CURRENCIES, 'Currency'),
  expires_on: requiredDate('Expiry date').refine((day) => day >= todayIso(), 'The expiry date cannot be in the past'),
  notes: optionalText('Notes'),
  tax_rate: percentage('Tax rate'),
  discount: percentage('Discount'),
  items: z
    .array(quoteItemSchema, { error: 'Add at least one line item' })
    .min(1, 'Add at least one line item')
    .max(MAX_QUOTE_ITEMS, `A quote has at most ${MAX_QUOTE_ITEMS} line items`),
}).superRefine((quote, ctx) => {
  quote.items.forEach((item, index) => {
    if (!fitsCurrency(item.unit_price, quote.currency)) {
      ctx.addIssue({ code: 'custom', path: ['items', index, 'unit_price'], message: wholeAmountMessage('Unit price', quote.currency) });
    }
  });
});

export type EditedQuote = z.output<typeof editQuoteSchema>;

/** The end of the chosen day (UTC): a quote expiring on a day is good through it. */
export const expiryOfDay = (day: string) => `${day}T23:59:59.999Z`;

/** What a quote's page posts: send a draft, revise a quote that left draft, delete a draft. */
export const quoteActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('send') }),
  z.object({ intent: z.literal('revise') }),
  z.object({ intent: z.literal('convert') }),
  z.object({ intent: z.literal('delete') }),
  // Resend: the page's request id names the press, so a double post is one mail.
  z.object({ intent: z.literal('resend'), request: z.uuid() }),
  z.object({ intent: z.literal('copy_link') }),
]);
