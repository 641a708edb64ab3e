// The quotes addressed to a client (their 'My quotes' page): a page of the
// quote_list rows row-level security lets them read, newest first. Nothing
// else of the account is asked for: no summary, no search over the pipeline.
import type { SupabaseClient } from '@supabase/supabase-js';
import { PAGE_SIZE, pageRange } from '~/lib/list-query';

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
  const requested = Number.parseInt(url.searchParams.get('page') ?? '1', 10);
  const page = Number.isFinite(requested) && requested >= 1 && requested <= 10_000 ? requested : 1;
  const { from, to } = pageRange(page);
  const { data, error } = await supabase
    .from('quote_list')
    .select('id, quote_number, status, currency, total, created_at, expires_at')
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, to)
    .returns<SharedQuote[]>();
  if (error) console.error(`shared quotes failed to load: ${error.message}`);
  const rows = data ?? [];
  return { page, quotes: rows.slice(0, PAGE_SIZE), hasNext: rows.length > PAGE_SIZE, failed: error !== null };
}
