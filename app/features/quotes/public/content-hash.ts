// The SHA-256 of what a client signs: the quote's content as canonical JSON
// (object keys sorted, no whitespace, numbers as JSON writes them), so the
// same quote always hashes the same, on the public page and in the PDF's
// certificate. WebCrypto: runs in the Worker and in Node alike.

export interface QuoteContent {
  account_name: string;
  quote_number: string | null;
  currency: string;
  items: { description: string; qty: number; unit_price: number; total: number }[];
  subtotal: number;
  discount: number;
  discount_amount: number;
  tax_rate: number;
  tax_amount: number;
  total: number;
  expires_at: string | null;
  notes: string | null;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON with every object's keys in code-point order, so equal content gives equal text. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

/** Only the fields that make up the quote, whatever else the caller's object carries. */
export function quoteContent(input: QuoteContent): QuoteContent {
  return {
    account_name: input.account_name,
    quote_number: input.quote_number,
    currency: input.currency,
    items: input.items.map((i) => ({ description: i.description, qty: i.qty, unit_price: i.unit_price, total: i.total })),
    subtotal: input.subtotal,
    discount: Number(input.discount),
    discount_amount: input.discount_amount,
    tax_rate: Number(input.tax_rate),
    tax_amount: input.tax_amount,
    total: input.total,
    // One spelling of the instant, however the database wrote it.
    expires_at: input.expires_at === null ? null : new Date(input.expires_at).toISOString(),
    notes: input.notes,
  };
}

/** Hex SHA-256 of the quote's canonical content. */
export async function quoteContentHash(input: QuoteContent): Promise<string> {
  const text = canonicalJson(quoteContent(input) as unknown as Json);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
