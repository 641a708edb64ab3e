// The hourly tender feed run (issue 38; decision 079); the job that calls it: job.server.ts.
// claim_tender_sources takes the sources whose hour has come (and moves them on an hour in the same
// statement, so each is fetched once per hour whichever runner runs); each is fetched (fetch-feed.server.ts:
// conditional GET, 2 MB, 10 s, no private addresses), parsed by its format, its notices stored once per
// source and notice id (ingest_tender_notices notes what an amendment changed), and the outcome recorded. A
// feed that fails is marked with its error and retried later (15 minutes, then 30, then hourly) while the
// others go on. Relative .ts imports: the db tests run it in Node against a feed server of their own.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, Json } from '../../../lib/database.types.ts';
import { countryCode } from './country.ts';
import { fetchFeed, FeedFetchError, type FeedFetchOptions } from './fetch-feed.server.ts';
import { FeedFormatError } from './notice.ts';
import { parseFeed, type FeedFormat } from './parse.ts';
import { tedSearchBody } from './ted.ts';

/** Sources taken per run and fetched at once: 8 at 10 s each, 4 at a time, ends well within the job's 45 s. */
const SOURCES_PER_RUN = 8;
const AT_ONCE = 4;

export interface FeedRunSummary {
  fetched: number;
  notModified: number;
  failed: number;
  inserted: number;
  amended: number;
  /** The accounts whose feeds brought new or amended notices this run (their searches' alert mails: alerts.server.ts). */
  accounts: string[];
}

type Source = Pick<Database['public']['Tables']['tender_sources']['Row'], 'id' | 'account_id' | 'url' | 'format' | 'etag' | 'last_modified' | 'query'>;

export async function runTenderFeeds(
  admin: SupabaseClient<Database>,
  now: Date,
  options: Omit<FeedFetchOptions, 'allow'> & { allow: Set<string> },
): Promise<FeedRunSummary> {
  const summary: FeedRunSummary = { fetched: 0, notModified: 0, failed: 0, inserted: 0, amended: 0, accounts: [] };
  const { data, error } = await admin.rpc('claim_tender_sources', { p_now: now.toISOString(), p_limit: SOURCES_PER_RUN });
  if (error) throw new Error(`claiming tender sources failed: ${error.message}`);
  const sources = (data ?? []) as Source[];
  for (let i = 0; i < sources.length; i += AT_ONCE) {
    await Promise.all(sources.slice(i, i + AT_ONCE).map((source) => runSource(admin, source, now, options, summary)));
  }
  return summary;
}

async function runSource(admin: SupabaseClient<Database>, source: Source, now: Date, options: FeedFetchOptions, summary: FeedRunSummary) {
  let outcome: { etag: string | null; lastModified: string | null; error: string | null } = { etag: null, lastModified: null, error: null };
  try {
    // A TED source with an expert query POSTs it (decision 092); every other source is a conditional GET.
    const search = source.format === 'ted' && source.query ? { postJson: tedSearchBody(source.query) } : {};
    const fetched = await fetchFeed(source.url, { etag: source.etag, lastModified: source.last_modified }, { ...options, ...search });
    if (fetched.status === 'not-modified') {
      summary.notModified += 1;
    } else {
      const notices = parseFeed(source.format as FeedFormat, fetched.text).map((notice) => ({ ...notice, country: countryCode(notice.country) }));
      const { data, error } = await admin.rpc('ingest_tender_notices', { p_source: source.id, p_notices: notices as unknown as Json }).single();
      if (error) throw new Error(`storing the notices failed: ${error.message}`);
      summary.fetched += 1;
      summary.inserted += data.inserted;
      summary.amended += data.amended;
      if (data.inserted + data.amended > 0 && !summary.accounts.includes(source.account_id)) summary.accounts.push(source.account_id);
      outcome = { etag: fetched.etag, lastModified: fetched.lastModified, error: null };
    }
  } catch (error) {
    summary.failed += 1;
    const message = error instanceof FeedFetchError || error instanceof FeedFormatError ? error.message : `The feed could not be read: ${error instanceof Error ? error.message : String(error)}`;
    outcome = { etag: null, lastModified: null, error: message.slice(0, 1000) };
  }
  const { error } = await admin.rpc('record_tender_fetch', {
    p_source: source.id, p_now: now.toISOString(), p_etag: outcome.etag ?? undefined, p_last_modified: outcome.lastModified ?? undefined,
    p_error: outcome.error ?? undefined,
  });
  if (error) console.error(`tender feed ${source.id}: recording the outcome failed: ${error.message}`);
}

