// The fields doc2data finds in a document without a template, how each is
// written when stored (fields jsonb: `{ key: { value, confidence } }`), and
// how a person's correction of each is checked. Relative imports only: the
// unit tests, the bench and the Worker all load this.

export const FIELD_KEYS = [
  'kind',
  'invoice_number',
  'order_number',
  'quote_number',
  'issue_date',
  'due_date',
  'currency',
  'subtotal',
  'tax_amount',
  'total',
  'supplier_name',
  'customer_name',
  'tax_id',
  'email',
  'phone',
  'iban',
] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

/** What the document is, as far as its words tell. */
export const DOCUMENT_KINDS = ['invoice', 'quote', 'purchase_order', 'receipt', 'contract', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  invoice: 'Invoice',
  quote: 'Quote',
  purchase_order: 'Purchase order',
  receipt: 'Receipt',
  contract: 'Contract',
  other: 'Other',
};

export type FieldShape = 'text' | 'date' | 'amount' | 'currency' | 'email' | 'iban' | 'kind';

export const FIELDS: Record<FieldKey, { label: string; shape: FieldShape; hint?: string }> = {
  kind: { label: 'Document kind', shape: 'kind' },
  invoice_number: { label: 'Invoice number', shape: 'text' },
  order_number: { label: 'Purchase order number', shape: 'text' },
  quote_number: { label: 'Quote number', shape: 'text' },
  issue_date: { label: 'Issue date', shape: 'date', hint: 'YYYY-MM-DD' },
  due_date: { label: 'Due date', shape: 'date', hint: 'YYYY-MM-DD' },
  currency: { label: 'Currency', shape: 'currency', hint: 'Three letters, e.g. EUR' },
  subtotal: { label: 'Subtotal', shape: 'amount', hint: 'e.g. 1250.00' },
  tax_amount: { label: 'Tax', shape: 'amount', hint: 'e.g. 250.00' },
  total: { label: 'Total', shape: 'amount', hint: 'e.g. 1500.00' },
  supplier_name: { label: 'Supplier', shape: 'text' },
  customer_name: { label: 'Customer', shape: 'text' },
  tax_id: { label: 'VAT / tax id', shape: 'text' },
  email: { label: 'Email', shape: 'email' },
  phone: { label: 'Phone', shape: 'text' },
  iban: { label: 'IBAN', shape: 'iban' },
};

export interface LineItem {
  description: string;
  quantity: string | null;
  unit_price: string | null;
  amount: string | null;
}

export interface FoundField<T = string> {
  value: T;
  /** 0 to 1: how sure the extractor is (1 once a person has confirmed it). */
  confidence: number;
}

/** The `fields` column of a document. */
export type DocumentFields = Partial<Record<FieldKey, FoundField>> & { line_items?: FoundField<LineItem[]> };

/** The fields column as read back from the database (any JSON): only well-formed entries survive. */
export function readFields(value: unknown): DocumentFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const raw = value as Record<string, unknown>;
  const fields: DocumentFields = {};
  for (const key of FIELD_KEYS) {
    const entry = raw[key] as { value?: unknown; confidence?: unknown } | undefined;
    if (entry && typeof entry.value === 'string' && typeof entry.confidence === 'number') {
      fields[key] = { value: entry.value, confidence: entry.confidence };
    }
  }
  const items = raw.line_items as { value?: unknown; confidence?: unknown } | undefined;
  if (items && Array.isArray(items.value) && typeof items.confidence === 'number') {
    fields.line_items = {
      confidence: items.confidence,
      value: items.value
        .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
        .map((item) => ({
          description: String(item.description ?? ''),
          quantity: typeof item.quantity === 'string' ? item.quantity : null,
          unit_price: typeof item.unit_price === 'string' ? item.unit_price : null,
          amount: typeof item.amount === 'string' ? item.amount : null,
        })),
    };
  }
  return fields;
}

/** An IBAN's check digits hold (ISO 13616: the number mod 97 is 1). */
export function isValidIban(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of moved) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** A calendar date written YYYY-MM-DD that exists. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
