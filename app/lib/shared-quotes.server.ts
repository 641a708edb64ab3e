// The quotes addressed to a client (their 'My quotes' page): a page of the
// quote_list rows row-level security lets them read, newest first. Nothing
// else of the account is asked for: no summary, no search over the pipeline.
import type { Tables } from '~/lib/database.types';
import type { Supabase } from '~/lib/supabase.server';
import { readListQuery } from '~/lib/list-query';
import { readList } from '~/lib/records.server';

/** What a client sees of a quote (quote_list is a view: every column reads as nullable). */
export type SharedQuote = Pick<
  Tables<'quote_list'>,
  'id' | 'quote_number' | 'status' | 'currency' | 'total' | 'created_at' | 'expires_at'
>;

export async function loadSharedQuotes(supabase: Supabase, url: URL) {
  // Only ?page= counts here: a client has no search or filter.
  const query = readListQuery(url, []);
  const select = supabase.from('quote_list').select('id, quote_number, status, currency, total, created_at, expires_at');
  const list = await readList<SharedQuote, never>(select, { ...query, q: '' }, 'shared quotes');
  return { list };
}
