// The hourly tender feed run (issue 38; decision 079); the job that calls it: job.server.ts.
// claim_tender_sources takes the sources whose hour has come (and moves them on an hour in the same
// statement, so each is fetched once per hour whichever runner runs); each is fetched (fetch-feed.server.ts:
// conditional GET, 2 MB, 10 s, no private addresses), parsed by its format, its notices stored once per
// source and notice id (ingest_tender_notices notes what an amendment changed), and the outcome recorded. A
// feed that fails is marked with its error and retried later (15 minutes, then 30, then hourly) while the
// others go on. A TED source with an expert query reads page after page while they bring new notices
// (runTedSearch below; decision 092). Relative .ts imports: the db tests run it in Node against a feed server of their own.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, Json } from '../../../lib/database.types.ts';
import { countryCode } from './country.ts';
import { FEED_FETCH_LIMITS, fetchFeed, FeedFetchError, type FeedFetchOptions } from './fetch-feed.server.ts';
import { FeedFormatError, type Notice } from './notice.ts';
import { parseFeed, type FeedFormat } from './parse.ts';
import { parseTedSearchPage, TED_SEARCH_LIMIT, tedSearchBody } from './ted.ts';

/**
 * Sources taken per run and fetched at once: 8, 4 at a time, each within 20 s (a feed's one fetch is cut off
 * at 10 s; a TED search's pages share one 20 s deadline), so two rounds end within the job's 45 s.
 */
const SOURCES_PER_RUN = 8;
const AT_ONCE = 4;
/** A TED search reads at most 5 pages (500 notices) per run, all within 20 s from its first request. */
export const TED_PAGE_LIMITS = { maxPages: 5, deadlineMs: 20_000 } as const;
/** A page is not started with less than this left of the source's deadline: it could only time out. */
const TED_MIN_PAGE_MS = 1000;
/** TED's page-number mode serves the first 15,000 notices of a query: 150 pages of 100. */
const TED_MAX_PAGE = 150;

export interface FeedRunSummary {
  fetched: number;
  notModified: number;
  failed: number;
  inserted: number;
  amended: number;
  /** Pages read: one per feed fetched, and each page of a TED search (its outcome has no column for them). */
  pages: number;
  /** The accounts whose feeds brought new or amended notices this run (their searches' alert mails: alerts.server.ts). */
  accounts: string[];
}

/** The job's options: the fetcher's, and (for tests) smaller caps on a TED search's pages. */
export type FeedRunOptions = FeedFetchOptions & { tedLimits?: { maxPages?: number; deadlineMs?: number } };

type Source = Pick<Database['public']['Tables']['tender_sources']['Row'], 'id' | 'account_id' | 'url' | 'format' | 'etag' | 'last_modified' | 'query' | 'ted_resume_page'>;

export async function runTenderFeeds(
  admin: SupabaseClient<Database>,
  now: Date,
  options: FeedRunOptions,
): Promise<FeedRunSummary> {
  const summary: FeedRunSummary = { fetched: 0, notModified: 0, failed: 0, inserted: 0, amended: 0, pages: 0, accounts: [] };
  const { data, error } = await admin.rpc('claim_tender_sources', { p_now: now.toISOString(), p_limit: SOURCES_PER_RUN });
  if (error) throw new Error(`claiming tender sources failed: ${error.message}`);
  const sources = (data ?? []) as Source[];
  for (let i = 0; i < sources.length; i += AT_ONCE) {
    await Promise.all(sources.slice(i, i + AT_ONCE).map((source) => runSource(admin, source, now, options, summary)));
  }
  return summary;
}

async function runSource(admin: SupabaseClient<Database>, source: Source, now: Date, options: FeedRunOptions, summary: FeedRunSummary) {
  let outcome: { etag: string | null; lastModified: string | null; error: string | null; resumePage?: number | null } = { etag: null, lastModified: null, error: null };
  try {
    if (source.format === 'ted' && source.query) {
      // A TED source with an expert query POSTs it (decision 092), page after page; no validators apply.
      outcome.resumePage = await runTedSearch(admin, { ...source, query: source.query }, options, summary);
      summary.fetched += 1;
    } else {
      const fetched = await fetchFeed(source.url, { etag: source.etag, lastModified: source.last_modified }, options);
      if (fetched.status === 'not-modified') {
        summary.notModified += 1;
      } else {
        const notices = parseFeed(source.format as FeedFormat, fetched.text);
        summary.pages += 1;
        await store(admin, source, notices, summary);
        summary.fetched += 1;
        outcome = { etag: fetched.etag, lastModified: fetched.lastModified, error: null };
      }
    }
  } catch (error) {
    summary.failed += 1;
    const message = error instanceof FeedFetchError || error instanceof FeedFormatError ? error.message : `The feed could not be read: ${error instanceof Error ? error.message : String(error)}`;
    outcome = { etag: null, lastModified: null, error: message.slice(0, 1000) };
  }
  const { error } = await admin.rpc('record_tender_fetch', {
    p_source: source.id, p_now: now.toISOString(), p_etag: outcome.etag ?? undefined, p_last_modified: outcome.lastModified ?? undefined,
    p_error: outcome.error ?? undefined, p_resume_page: outcome.resumePage ?? undefined,
  });
  if (error) console.error(`tender feed ${source.id}: recording the outcome failed: ${error.message}`);
}

/** One fetch's (or page's) notices stored; returns how many were new to this source. */
async function store(admin: SupabaseClient<Database>, source: Source, notices: Notice[], summary: FeedRunSummary): Promise<number> {
  const normalised = notices.map((notice) => ({ ...notice, country: countryCode(notice.country) }));
  const { data, error } = await admin.rpc('ingest_tender_notices', { p_source: source.id, p_notices: normalised as unknown as Json }).single();
  if (error) throw new Error(`storing the notices failed: ${error.message}`);
  summary.inserted += data.inserted;
  summary.amended += data.amended;
  if (data.inserted + data.amended > 0 && !summary.accounts.includes(source.account_id)) summary.accounts.push(source.account_id);
  return data.inserted;
}

/**
 * A TED search read page by page (PAGE_NUMBER 1, 2, ...; decision 092), each page fetched through fetchFeed
 * (2 MB, checked redirects, its own 10 s) and stored as it comes, so a page that fails keeps the pages before
 * it (the error is then the source's, as for any feed). The results come newest first by the query's SORT BY,
 * so the newest pages are read until one brings no notice this source had not stored, or the result set ends
 * (a short page, or totalNoticeCount reached). If the last run stopped at its cap with notices still new, the
 * pages left behind are read next, from where it stopped. The caps: 5 pages, 20 s for the whole source.
 * Returns the page the next run resumes from when a cap stopped it with pages still new, else null.
 */
async function runTedSearch(admin: SupabaseClient<Database>, source: Source & { query: string }, options: FeedRunOptions, summary: FeedRunSummary): Promise<number | null> {
  const { tedLimits, ...fetchOptions } = options;
  const { maxPages, deadlineMs }: { maxPages: number; deadlineMs: number } = { ...TED_PAGE_LIMITS, ...tedLimits };
  const started = Date.now();
  const perFetch = options.timeoutMs ?? FEED_FETCH_LIMITS.timeoutMs;
  let read = 0;
  let inserted = 0;
  /** Reads pages from `first` on: 'ended' with the results, 'caught up' at a page with nothing new, else the page a cap stopped before. */
  const readFrom = async (first: number, stopOnNothingNew: (page: number) => boolean): Promise<'ended' | 'caught up' | number> => {
    for (let page = first; page <= TED_MAX_PAGE; page += 1) {
      if (read >= maxPages) return page;
      const left = started + deadlineMs - Date.now();
      if (read > 0 && left < TED_MIN_PAGE_MS) {
        console.warn(`tender feed ${source.id}: TED search stopped at its ${deadlineMs / 1000} s deadline after ${read} pages`);
        return page;
      }
      const fetched = await fetchFeed(source.url, { etag: null, lastModified: null },
        { ...fetchOptions, postJson: tedSearchBody(source.query, page), timeoutMs: Math.min(perFetch, Math.max(left, TED_MIN_PAGE_MS)) });
      if (fetched.status !== 'ok') throw new FeedFetchError('The search answered 304');
      const result = parseTedSearchPage(fetched.text);
      read += 1;
      summary.pages += 1;
      const stored = await store(admin, source, result.notices, summary);
      inserted += stored;
      const ended = result.returned < TED_SEARCH_LIMIT || (result.total !== null && page * TED_SEARCH_LIMIT >= result.total);
      if (ended) return 'ended';
      if (stored === 0 && stopOnNothingNew(page)) return 'caught up';
    }
    return 'ended';
  };
  const newest = await readFrom(1, () => true);
  if (typeof newest === 'number') {
    // More new notices than a run reads: the next run goes on from here (an earlier run's pages left behind, further
    // down, are read only if no stored page lies between; a query that outruns 500 notices every hour loses some).
    console.warn(`tender feed ${source.id}: TED search stopped after ${read} pages with notices still new; the next run goes on from page ${newest}`);
    return newest;
  }
  if (newest === 'ended' || source.ted_resume_page === null) return null;
  // The notices stored just now came in on top and pushed the ones left behind down by as many places; one page
  // earlier than that, since notices that closed since moved them up. That first page may hold nothing new.
  const first = Math.max(read + 1, source.ted_resume_page + Math.floor(inserted / TED_SEARCH_LIMIT) - 1);
  const behind = await readFrom(first, (page) => page > first);
  return typeof behind === 'number' ? behind : null;
}
