// The hash a signer's acceptance is bound to: SHA-256 of the quote's content
// in one canonical JSON form, so that the same quote always gives the same
// hash, wherever and whenever it is computed, and any change to what was
// accepted gives another.
//
// Canonical form, version 1 (change `v` if it ever changes):
// - a JSON object with exactly these members, every object's keys in
//   ascending code-unit order, no whitespace (JSON.stringify's escaping),
//   hashed as UTF-8; the digest is written as 64 lower-case hex digits;
//   {"contact":…,"currency":…,"discount":…,"discount_percent":…,
//    "expires_at":…,"items":[…],"notes":…,"number":…,"subtotal":…,
//    "tax":…,"tax_rate":…,"total":…,"v":1}
// - number, currency, notes and the contact's name, email and company: the
//   strings as stored (not trimmed, not Unicode-normalized); a missing value
//   is null, no contact at all is "contact":null;
// - amounts (subtotal, discount, tax, total, each item's unit_price and
//   line_total): integer cents as a decimal string, "-" for a negative,
//   no leading zeros ("129999"), so amounts past 2^53 stay exact;
// - quantities and percentages (discount_percent, tax_rate): the shortest
//   exact decimal string ("2", "2.5", "8.25"; 2.50 → "2.5");
// - expires_at: the instant as ISO 8601 UTC with milliseconds
//   ("2026-12-24T00:00:00.000Z"), or null;
// - items: in the quote's order, each {"description","line_total",
//   "quantity","unit_price"}.
// Status, dates of sending and viewing, and the account are not content: they
// change or are known without the quote.
import { centsToBigInt } from '../money.ts';
import { toDate } from './document.ts';
import { canonicalDecimal } from './format.ts';
import type { QuotePdfInput } from './types.ts';

/** What the hash covers: a quote's content, as QuotePdfInput carries it. */
export type QuoteContent = Pick<
  QuotePdfInput,
  'quoteNumber' | 'currency' | 'contact' | 'items' | 'subtotal' | 'discountPercent' | 'discount' | 'taxRate' | 'tax' | 'total' | 'expiresAt' | 'notes'
>;

type Json = string | number | null | Json[] | { [key: string]: Json };

function stringify(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(stringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stringify(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The canonical JSON text described above. */
export function quoteCanonicalJson(quote: QuoteContent): string {
  const cents = (value: QuoteContent['total']) => centsToBigInt(value).toString();
  return stringify({
    v: 1,
    number: quote.quoteNumber,
    currency: quote.currency,
    contact: quote.contact ? { name: quote.contact.name, email: quote.contact.email, company: quote.contact.company } : null,
    items: quote.items.map((item) => ({
      description: item.description,
      quantity: canonicalDecimal(item.quantity),
      unit_price: cents(item.unitPrice),
      line_total: cents(item.lineTotal),
    })),
    subtotal: cents(quote.subtotal),
    discount_percent: canonicalDecimal(quote.discountPercent),
    discount: cents(quote.discount),
    tax_rate: canonicalDecimal(quote.taxRate),
    tax: cents(quote.tax),
    total: cents(quote.total),
    expires_at: quote.expiresAt === null ? null : toDate(quote.expiresAt).toISOString(),
    notes: quote.notes,
  });
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 (WebCrypto: the same in workerd, Node and browsers) of the canonical JSON, as hex. */
export async function quoteContentHash(quote: QuoteContent): Promise<string> {
  return sha256Hex(quoteCanonicalJson(quote));
}

/**
 * Version 2: since issue 30 the database takes the hash itself when a quote is
 * signed, over the snapshot it keeps (quotes.signed_document, made by
 * private.quote_signed_snapshot: "v":2, the renderer's keys, amounts as
 * strings). Its canonical text is the one above (keys sorted, no whitespace),
 * as private.canonical_json writes it; this recomputes the hash a signed
 * quote's content_hash should equal, from its stored snapshot.
 */
export async function signedDocumentHash(snapshot: unknown): Promise<string> {
  return sha256Hex(stringify(snapshot as Json));
}
