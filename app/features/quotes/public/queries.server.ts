// The public page's calls: each goes to the database as the visitor (anon),
// with the token; the database hashes it and answers for that one quote
// (decision 030). The per-IP window is Cloudflare's rate limiting binding,
// as for sign-in; the per-token count is the database's.
import { env } from 'cloudflare:workers';
import type { Seller } from '~/lib/seller';
import type { Supabase } from '~/lib/supabase.server';
import type { QuoteDocumentJson } from '../pdf/quote-document.server';

export type LinkState = 'open' | 'signed' | 'declined' | 'expired' | 'superseded' | 'not_found' | 'rate_limited';

export interface PublicQuote {
  quote_number: string | null;
  status: string;
  currency: string;
  subtotal: number;
  discount: number;
  discount_amount: number;
  tax_rate: number;
  tax_amount: number;
  total: number;
  expires_at: string | null;
  notes: string | null;
  sent_at: string | null;
  signed_at: string | null;
  signer_name: string | null;
  declined_at: string | null;
}

export interface LinkAnswer {
  state: LinkState;
  account_name?: string;
  /** The seller the quote was sent with (decision 045). */
  seller?: Seller | null;
  quote?: PublicQuote;
  items?: { description: string; qty: number; unit_price: number; total: number }[];
  signed_now?: boolean;
  declined_now?: boolean;
  /** An open quote's document, when asked for: what its PDF shows (the database binds the signature to it). */
  document?: QuoteDocumentJson;
}

/** A token as issue_quote_link makes them: 32 bytes, base64url. Anything else is not worth a database call. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The binding's window (wrangler.toml [[ratelimits]] QUOTE_LINK_IP_LIMITER period). */
export const IP_WINDOW_SECONDS = 60;

/** False when this client IP has used quote links too often in the last minute. */
export async function ipAllowed(request: Request): Promise<boolean> {
  const ip = request.headers.get('CF-Connecting-IP');
  if (!ip) return true;
  return (await env.QUOTE_LINK_IP_LIMITER.limit({ key: `quote-link:${ip}` })).success;
}

/** Thrown when the database cannot answer (the page says to try again; a 503). */
export class LinkUnavailable extends Error {}

/** Thrown when the database refused a value of the form (a check constraint, 23514): the field to mark. */
export class RefusedValue extends Error {
  constructor(readonly field: 'signer_name' | 'signer_email' | 'decline_reason') {
    super(`the database refused ${field}`);
  }
}

/** A refused value as the field it belongs to, else the database being unable to answer. */
function failure(error: { message: string; code?: string }): Error {
  if (error.code === '23514') {
    for (const field of ['signer_name', 'signer_email', 'decline_reason'] as const) {
      if (error.message.includes(`quotes_${field}_`)) return new RefusedValue(field);
    }
  }
  return new LinkUnavailable(error.message);
}

/** The quote a link opens (one use of the link's limit), with its document when withDocument. */
export async function openQuoteLink(supabase: Supabase, token: string, withDocument = false): Promise<LinkAnswer> {
  const { data, error } = await supabase.rpc('open_quote_link', { p_token: token, p_with_document: withDocument });
  if (error) throw new LinkUnavailable(error.message);
  return data as unknown as LinkAnswer;
}

export async function acceptQuote(
  supabase: Supabase,
  token: string,
  input: { name: string; email?: string; signaturePng?: string },
): Promise<LinkAnswer> {
  // The content hash is not ours to give: the database takes the quote's document and its hash at signing.
  const { data, error } = await supabase.rpc('accept_quote', {
    p_token: token,
    p_name: input.name,
    p_email: input.email,
    p_signature_png: input.signaturePng,
  });
  if (error) throw failure(error);
  return data as unknown as LinkAnswer;
}

export async function declineQuote(supabase: Supabase, token: string, reason?: string): Promise<LinkAnswer> {
  const { data, error } = await supabase.rpc('decline_quote', { p_token: token, p_reason: reason });
  if (error) throw failure(error);
  return data as unknown as LinkAnswer;
}
