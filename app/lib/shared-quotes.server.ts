// The quotes addressed to a client (their 'My quotes' page): a page of the
// quote_list rows row-level security lets them read, newest first. Nothing
// else of the account is asked for: no summary, no search over the pipeline.
import type { SupabaseClient } from '@supabase/supabase-js';
import { readListQuery } from '~/lib/list-query';
import { readList } from '~/lib/records.server';

export interface SharedQuote {
  id: string;
  quote_number: string | null;
  status: string | null;
  currency: string | null;
  total: number;
  created_at: string;
  expires_at: string | null;
}

export async function loadSharedQuotes(supabase: SupabaseClient, url: URL) {
  // Only ?page= counts here: a client has no search or filter.
  const query = readListQuery(url, []);
  const select = supabase.from('quote_list').select('id, quote_number, status, currency, total, created_at, expires_at');
  const list = await readList<SharedQuote, never>(select, { ...query, q: '' }, 'shared quotes');
  return { list };
}
