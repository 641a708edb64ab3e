// What a quote's own pages ask of the database: the quote with its client,
// ordered items and history; saving a draft whole; sending; revising.
import { loadHistory } from '~/lib/record-history.server';
import type { Supabase } from '~/lib/supabase.server';
import { expiryOfDay, type EditedQuote } from './schema';

// One literal, so the typed client reads its columns.
const QUOTE_COLUMNS =
  'id, quote_number, status, currency, subtotal, discount, discount_amount, tax_rate, tax_amount, total, expires_at, notes, created_at, sent_at, viewed_at, signed_at, declined_at, decline_reason, signer_name, signer_email, delivery_error, revision, revision_of, superseded_by, contact_id, contact:contacts!quotes_contact_id_account_id_fkey(id, name, email, company)';

/**
 * One quote the user may read (RLS: staff their account's, a client those
 * addressed to them), its items in order and, for staff, its history; null
 * when there is none to read (another account's, or no such quote).
 */
export async function loadQuote(supabase: Supabase, id: string, { history }: { history: boolean }) {
  const [quote, items, entries, invoice] = await Promise.all([
    supabase.from('quotes').select(QUOTE_COLUMNS).eq('id', id).maybeSingle(),
    supabase
      .from('quote_items')
      .select('id, description, qty, unit_price, total')
      .eq('quote_id', id)
      .order('position')
      .order('created_at')
      .order('id'),
    history ? loadHistory(supabase, 'quote', id) : null,
    // The invoice a signed quote became (once), if the caller may see it.
    supabase.from('invoices').select('id, invoice_number').eq('quote_id', id).maybeSingle(),
  ]);
  if (quote.error) throw new Error(`quote failed to load: ${quote.error.message}`);
  if (!quote.data) return null;
  if (items.error) throw new Error(`quote items failed to load: ${items.error.message}`);
  if (invoice.error) console.error(`the invoice of quote ${id} failed to load: ${invoice.error.message}`);
  return { quote: quote.data, items: items.data ?? [], history: entries ?? { entries: [], failed: false }, invoice: invoice.data ?? null };
}

export type QuoteDetail = NonNullable<Awaited<ReturnType<typeof loadQuote>>>['quote'];
export type QuoteLine = NonNullable<Awaited<ReturnType<typeof loadQuote>>>['items'][number];

/** The draft saved whole by save_quote_draft: the database checks it again and computes its amounts. */
export function saveQuoteDraft(supabase: Supabase, id: string, quote: EditedQuote) {
  return supabase
    .rpc('save_quote_draft', {
      p_quote_id: id,
      p_contact_id: quote.contact_id,
      p_currency: quote.currency,
      p_expires_at: expiryOfDay(quote.expires_on),
      p_notes: quote.notes ?? '',
      p_tax_rate: quote.tax_rate,
      p_discount: quote.discount,
      p_items: quote.items.map((item) => ({ description: item.description, qty: item.quantity, unit_price: item.unit_price })),
    })
    .select('id')
    .single();
}

/** Sends a draft (its mail goes out through the jobs runner); answers the contact's email. */
export function sendQuote(supabase: Supabase, id: string) {
  return supabase.rpc('send_quote', { p_quote_id: id });
}

/** A new draft copied from a quote that left draft. */
export function reviseQuote(supabase: Supabase, id: string) {
  return supabase.rpc('revise_quote', { p_quote_id: id });
}

/** A signed quote made an invoice (once): the new invoice, or the error naming the one it already became. */
export function convertQuoteToInvoice(supabase: Supabase, id: string) {
  return supabase.rpc('convert_quote_to_invoice', { p_quote_id: id });
}
