// What a reviewed document becomes (decision 033): a draft invoice for its
// customer, or a contact for the party whose details it carries. Each is read
// from the fields as stored (a person's corrections included) and either
// fits, or each field that stops it gets a message shown under that field.
// Relative imports only: the unit tests load this in Node.
import { isCurrency, type CurrencyCode } from '../../lib/currencies.ts';
import { DOCUMENT_KIND_LABELS, type DocumentFields, type DocumentKind, type FieldKey, type LineItem } from './extraction/fields.ts';

export type FieldErrors = Partial<Record<FieldKey, string[]>>;
export type InvoiceCurrency = CurrencyCode;

export interface DraftItem {
  description: string;
  qty: number;
  /** Cents. */
  unit_price: number;
}

export interface InvoiceDraft {
  client_name: string;
  client_email: string;
  currency: InvoiceCurrency;
  due_date: string;
  items: DraftItem[];
  /** Percent with two decimals, as invoices store it. */
  tax_rate: number;
  notes: string;
}

export interface ContactDraft {
  name: string;
  email: string;
  phone: string | null;
}

export const RECORD_FIELD_TEXTS = {
  noTotal: "Enter the document's total to create an invoice from it",
  badTotal: 'The total must be more than zero',
  noCurrency: "Enter the document's currency (three letters, e.g. EUR) to create an invoice from it",
  currency: (code: string) => `${code} is not a currency invoices are made in`,
  noCustomer: 'Enter the customer to invoice',
  noEmail: "Enter the customer's email: the invoice is addressed to it",
  badEmail: 'Enter a valid email address',
  dueBeforeIssue: 'The due date cannot be before the issue date',
  // As the database says it (create_invoice): an invoice is not made overdue.
  dueInPast: 'The due date cannot be in the past',
  noContactName: 'Enter the name of the contact to create',
  noContactEmail: "Enter the contact's email address",
} as const;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const MAX_CENTS = 100_000_000_000;
/** How long an invoice without a due date of its own has, as a converted quote gets. */
export const DEFAULT_TERM_DAYS = 30;

/** '1542.60' → 154260; null when the text is no amount of up to 12 digits and 2 decimals. */
export function toCents(value: string | null | undefined): number | null {
  const match = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec((value ?? '').trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

const text = (fields: DocumentFields, key: FieldKey) => fields[key]?.value.trim() || null;
const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The tax the invoice's triggers compute for a subtotal and a rate (cents, half-up as Postgres rounds). */
export function taxFor(subtotal: number, rate: number): number {
  const hundredths = BigInt(Math.round(rate * 100));
  return Number((BigInt(subtotal) * hundredths * 2n + 10_000n) / 20_000n);
}

/** The rate (two decimals) that gives exactly `tax` on `subtotal`, if there is one. */
function exactRate(subtotal: number, tax: number): number | null {
  if (subtotal <= 0 || tax < 0) return null;
  const rate = Math.round((tax / subtotal) * 10_000) / 100;
  return rate <= 100 && taxFor(subtotal, rate) === tax ? rate : null;
}

/** A line of the document's table as an invoice line: whole quantities kept, else one line at its amount. */
function draftItem(item: LineItem): DraftItem | null {
  const description = item.description.trim();
  const qty = Number(item.quantity);
  const price = toCents(item.unit_price);
  const amount = toCents(item.amount) ?? (Number.isInteger(qty) && price !== null ? qty * price : null);
  if (!description || amount === null || amount < 0 || amount > MAX_CENTS) return null;
  if (Number.isInteger(qty) && qty >= 1 && qty <= 1_000_000 && price !== null && qty * price === amount) {
    return { description: cut(description, 2000), qty, unit_price: price };
  }
  const detail = item.quantity && item.unit_price ? ` (${item.quantity} × ${item.unit_price})` : '';
  return { description: cut(`${description}${detail}`, 2000), qty: 1, unit_price: amount };
}

/**
 * The invoice's lines and tax rate, adding up to the document's total: its
 * table with the tax as a rate when one gives the tax to the cent (else the
 * tax as a line), or one line for the whole when the table does not add up.
 */
function linesAndRate(fields: DocumentFields, total: number, summary: string): { items: DraftItem[]; tax_rate: number } {
  const tax = toCents(text(fields, 'tax_amount'));
  const subtotal = toCents(text(fields, 'subtotal'));
  const table = fields.line_items?.value.map(draftItem) ?? [];
  const items = table.length > 0 && table.length <= 99 && table.every((item) => item !== null) ? (table as DraftItem[]) : [];
  const sum = items.reduce((n, item) => n + item.qty * item.unit_price, 0);
  if (items.length > 0 && sum === total) return { items, tax_rate: 0 };
  if (items.length > 0 && tax !== null && tax > 0 && sum + tax === total) {
    const rate = exactRate(sum, tax);
    return rate !== null ? { items, tax_rate: rate } : { items: [...items, { description: 'Tax', qty: 1, unit_price: tax }], tax_rate: 0 };
  }
  if (subtotal !== null && tax !== null && tax > 0 && subtotal + tax === total) {
    const rate = exactRate(subtotal, tax);
    if (rate !== null) return { items: [{ description: summary, qty: 1, unit_price: subtotal }], tax_rate: rate };
  }
  return { items: [{ description: summary, qty: 1, unit_price: total }], tax_rate: 0 };
}

/** The draft invoice a document's fields make, or what stops it, field by field. */
export function invoiceDraftFrom(
  fields: DocumentFields,
  document: { title: string },
  today: string,
): { draft: InvoiceDraft; errors?: undefined } | { draft?: undefined; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const total = toCents(text(fields, 'total'));
  if (!text(fields, 'total')) errors.total = [RECORD_FIELD_TEXTS.noTotal];
  else if (total === null || total <= 0 || total > MAX_CENTS) errors.total = [RECORD_FIELD_TEXTS.badTotal];
  const currency = text(fields, 'currency')?.toUpperCase() ?? null;
  if (!currency) errors.currency = [RECORD_FIELD_TEXTS.noCurrency];
  else if (!isCurrency(currency)) errors.currency = [RECORD_FIELD_TEXTS.currency(currency)];
  const customer = text(fields, 'customer_name');
  if (!customer) errors.customer_name = [RECORD_FIELD_TEXTS.noCustomer];
  const email = text(fields, 'email')?.toLowerCase() ?? null;
  if (!email) errors.email = [RECORD_FIELD_TEXTS.noEmail];
  else if (!EMAIL.test(email) || email.length > 254) errors.email = [RECORD_FIELD_TEXTS.badEmail];
  const issued = text(fields, 'issue_date');
  const due = text(fields, 'due_date');
  if (due && issued && due < issued) errors.due_date = [RECORD_FIELD_TEXTS.dueBeforeIssue];
  else if (due && due < today) errors.due_date = [RECORD_FIELD_TEXTS.dueInPast];
  if (Object.keys(errors).length > 0 || total === null || !customer || !email) return { errors };

  const kind = (text(fields, 'kind') ?? 'invoice') as DocumentKind;
  const number = text(fields, 'invoice_number') ?? text(fields, 'order_number') ?? text(fields, 'quote_number');
  const supplier = text(fields, 'supplier_name');
  const summary = cut([DOCUMENT_KIND_LABELS[kind] ?? 'Document', number, supplier ? `from ${supplier}` : null].filter(Boolean).join(' '), 2000);
  const notes = [
    `From the document "${cut(document.title, 200)}"`,
    number ? `number ${number}` : null,
    issued ? `issued ${issued}` : null,
    due ? null : `due in ${DEFAULT_TERM_DAYS} days (the document states no due date)`,
  ]
    .filter(Boolean)
    .join(', ');
  return {
    draft: {
      client_name: cut(customer, 200),
      client_email: email,
      currency: currency as InvoiceCurrency,
      due_date: due ?? addDays(today, DEFAULT_TERM_DAYS),
      ...linesAndRate(fields, total, summary),
      notes: `${notes}.`,
    },
  };
}

/**
 * The contact a document names: the party whose letterhead carries the email
 * and phone found (the supplier), else its customer.
 */
export function contactDraftFrom(fields: DocumentFields): { draft: ContactDraft; errors?: undefined } | { draft?: undefined; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = text(fields, 'supplier_name') ?? text(fields, 'customer_name');
  if (!name) errors.supplier_name = [RECORD_FIELD_TEXTS.noContactName];
  const email = text(fields, 'email')?.toLowerCase() ?? null;
  if (!email) errors.email = [RECORD_FIELD_TEXTS.noContactEmail];
  else if (!EMAIL.test(email) || email.length > 254) errors.email = [RECORD_FIELD_TEXTS.badEmail];
  if (!name || !email || Object.keys(errors).length > 0) return { errors };
  return { draft: { name: cut(name, 200), email, phone: text(fields, 'phone') } };
}
