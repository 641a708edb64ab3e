// What the portal reads, as the signed-in client: row-level security gives a
// client only what was sent to it (decisions 041, 043); each read also asks
// for sent rows itself, so a slip in a policy would not show a draft here.
import type { Supabase } from '~/lib/supabase.server';
import { readListQuery, type ListPage } from '~/lib/list-query';
import { readList } from '~/lib/records.server';

export interface PortalQuote {
  id: string;
  quote_number: string | null;
  status: string;
  currency: string;
  total: number;
  expires_at: string | null;
  sent_at: string;
  signed_at: string | null;
  created_at: string;
}

export interface PortalPayment {
  id: string;
  amount: number;
  paid_on: string;
  kind: string;
  method: string;
}

export interface PortalInvoice {
  id: string;
  invoice_number: string | null;
  status: string;
  currency: string;
  total: number;
  amount_paid: number;
  due_date: string;
  sent_at: string;
  created_at: string;
  payments: PortalPayment[];
}

export interface PortalBrand {
  name: string | null;
}

const QUOTE_COLUMNS = 'id, quote_number, status, currency, total, expires_at, sent_at, signed_at, created_at';

/** The seller's name for the portal's header (outsiders cannot read the account itself). */
export async function loadPortalBrand(supabase: Supabase): Promise<PortalBrand> {
  const { data, error } = await supabase.rpc('portal_brand');
  if (error) console.error(`portal brand failed to load: ${error.message}`);
  const brand = (data ?? null) as { name?: string } | null;
  return { name: brand?.name ?? null };
}

/** The quotes sent to the client, newest first, a page at a time. */
export function loadPortalQuotes(supabase: Supabase, url: URL): Promise<ListPage<PortalQuote, never>> {
  const select = supabase.from('quotes').select(QUOTE_COLUMNS).not('sent_at', 'is', null).neq('status', 'draft').returns<PortalQuote[]>();
  return readList<PortalQuote, never>(select, readListQuery(url, []), 'portal quotes');
}

/** The quotes the client signed: their PDFs carry the signature certificate. */
export function loadSignedQuotes(supabase: Supabase, url: URL): Promise<ListPage<PortalQuote, never>> {
  const select = supabase.from('quotes').select(QUOTE_COLUMNS).not('sent_at', 'is', null).eq('status', 'signed').returns<PortalQuote[]>();
  return readList<PortalQuote, never>(select, readListQuery(url, []), 'portal signed documents');
}

/** The invoices sent to the client with their payments, newest first, a page at a time. */
export function loadPortalInvoices(supabase: Supabase, url: URL): Promise<ListPage<PortalInvoice, never>> {
  const select = supabase
    .from('invoices')
    .select('id, invoice_number, status, currency, total, amount_paid, due_date, sent_at, created_at, payments(id, amount, paid_on, kind, method)')
    .not('sent_at', 'is', null)
    .neq('status', 'draft')
    .returns<PortalInvoice[]>();
  return readList<PortalInvoice, never>(select, readListQuery(url, []), 'portal invoices');
}

export type PortalLinkAnswer = { token: string } | { refused: 'not_found' | 'closed' | 'rate_limited' | 'failed' };

/** A short link of the client's own to sign or decline an open quote on its page (/q/:token). */
export async function issuePortalLink(supabase: Supabase, quoteId: string): Promise<PortalLinkAnswer> {
  const { data, error } = await supabase.rpc('portal_quote_link', { p_quote_id: quoteId });
  if (!error && typeof data === 'string') return { token: data };
  if (error?.code === 'P0002') return { refused: 'not_found' };
  if (error?.code === '22023') return { refused: 'closed' };
  if (error?.code === '54000') return { refused: 'rate_limited' };
  console.error(`portal link failed: ${error?.message ?? 'no token'}`);
  return { refused: 'failed' };
}
