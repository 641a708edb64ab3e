// A TED search read page after page (issue 38; decision 092, "Reading every new notice") against a local HTTP
// server standing in for https://api.ted.europa.eu/v3/notices/search: it answers each POSTed page (page,
// limit, PAGE_NUMBER) from a list of notices newest first, with totalNoticeCount. One run reads every page
// of 250 notices; the next hour's run stops at the first page with nothing new; 5 pages at most per run; a
// page that fails keeps the pages before it and marks the source with its error; the source's deadline
// stops the pages without an error; a run stopped by its cap is resumed where it stopped once the newest pages
// are caught up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { runTenderFeeds, type FeedRunOptions } from '../../app/features/rfp/feeds/run-feeds.server.ts';
import { serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const QUERY = 'classification-cpv IN (72000000) SORT BY publication-number DESC';

/** Notices numbered from `newest` down, newest first as the query's SORT BY asks. */
const notices = (newest: number, count: number) => Array.from({ length: count }, (_, i) => ({
  'publication-number': `${newest - i}-2026`, 'notice-title': { eng: `Software services lot ${newest - i}` },
  'buyer-country': ['DEU'], 'classification-cpv': ['72000000'], 'publication-date': '2026-11-25+01:00',
}));

let results: ReturnType<typeof notices> = [];
let failPage: number | null = null;
let delayMs = 0;
const asked: number[] = [];
let server: Server;

function serve(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { page: number; limit: number; paginationMode: string };
    asked.push(body.page);
    if (body.page === failPage) return res.writeHead(503).end('busy');
    const page = results.slice((body.page - 1) * body.limit, body.page * body.limit);
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ totalNoticeCount: results.length, notices: page })), delayMs);
  });
}

describe('a TED search read page after page', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let base: string;
  let allow: Set<string>;
  let sourceId: string;
  let clock = Date.now() + 60_000;
  // Each run an hour after the last, so the source is due again.
  const run = (tedLimits?: FeedRunOptions['tedLimits']) => {
    clock += 61 * 60_000;
    return runTenderFeeds(service as never, new Date(clock), { allow, timeoutMs: 3000, tedLimits });
  };
  const stored = async () => (await service.from('opportunities').select('id', { count: 'exact', head: true }).eq('source_id', sourceId)).count;
  const newSource = async (name: string) => {
    await service.from('tender_sources').delete().eq('account_id', admin.accountId);
    const { data, error } = await admin.client.from('tender_sources')
      .insert({ name, url: `${base}/v3/notices/search`, format: 'ted', query: QUERY }).select('id').single();
    if (error) throw new Error(error.message);
    sourceId = data.id;
  };

  beforeAll(async () => {
    server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    allow = new Set([`127.0.0.1:${port}`]);
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'ted-pages-admin');
    // The seed's demo source (the backend's own feed, decision 092) would be fetched too: these runs count only this file's.
    await service.from('tender_sources').delete().eq('name', 'Contracts Finder (demo)');
  }, 120_000);
  beforeEach(() => {
    asked.length = 0;
    failPage = null;
    delayMs = 0;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await backend?.stop();
  });

  it('stores all 250 notices of three pages in one run, then reads one page when nothing is new', async () => {
    await newSource('TED: software, three pages');
    results = notices(900_000, 250);
    const first = await run();
    expect(first).toMatchObject({ fetched: 1, failed: 0, inserted: 250, pages: 3 });
    expect(asked).toEqual([1, 2, 3]);
    expect(await stored()).toBe(250);

    asked.length = 0;
    const second = await run();
    expect(second).toMatchObject({ fetched: 1, failed: 0, inserted: 0, pages: 1 });
    expect(asked).toEqual([1]);

    // 120 new notices on top: pages 1 and 2 bring them, page 3 only notices seen before.
    asked.length = 0;
    results = [...notices(900_120, 120), ...results];
    const third = await run();
    expect(third).toMatchObject({ inserted: 120, pages: 3 });
    expect(asked).toEqual([1, 2, 3]);
    expect(await stored()).toBe(370);
  });

  it('reads at most five pages a run', async () => {
    await newSource('TED: software, many pages');
    results = notices(800_000, 700);
    const summary = await run();
    expect(summary).toMatchObject({ fetched: 1, failed: 0, inserted: 500, pages: 5 });
    expect(asked).toEqual([1, 2, 3, 4, 5]);
    expect(await stored()).toBe(500);
    const { data: source } = await service.from('tender_sources').select('last_error, failures').eq('id', sourceId).single();
    expect(source).toEqual({ last_error: null, failures: 0 });
  });

  it('goes on from where the cap stopped it, once the newest pages are caught up, until nothing is left behind', async () => {
    await newSource('TED: software, more than a run reads');
    const resumePage = async () => (await service.from('tender_sources').select('ted_resume_page').eq('id', sourceId).single()).data!.ted_resume_page;
    results = notices(500_000, 700);
    expect(await run()).toMatchObject({ inserted: 500, pages: 5 });
    expect(await resumePage()).toBe(6);

    // 150 new on top push the 200 left behind down to places 651–850 (pages 7–9). The newest pages come first
    // (1, 2 new; 3 nothing new), then the run goes on one page early (6: nothing new) and page 7 before its cap.
    asked.length = 0;
    results = [...notices(500_150, 150), ...results];
    expect(await run()).toMatchObject({ inserted: 200, pages: 5 });
    expect(asked).toEqual([1, 2, 3, 6, 7]);
    expect(await resumePage()).toBe(8);

    asked.length = 0;
    expect(await run()).toMatchObject({ inserted: 150, pages: 4 });
    expect(asked).toEqual([1, 7, 8, 9]);
    expect(await stored()).toBe(850);
    expect(await resumePage()).toBeNull();

    // Only the runner moves it (no column grant), and a changed query starts over.
    await service.rpc('record_tender_fetch', { p_source: sourceId, p_now: new Date(clock).toISOString(), p_resume_page: 4 });
    const { error } = await admin.client.from('tender_sources').update({ ted_resume_page: 2 } as never).eq('id', sourceId);
    expect(error?.message).toMatch(/permission denied/);
    expect(await resumePage()).toBe(4);
    await admin.client.from('tender_sources').update({ query: `${QUERY} ` }).eq('id', sourceId);
    expect(await resumePage()).toBeNull();
  });

  it('keeps page 1 when page 2 fails, and marks the source with the error', async () => {
    await newSource('TED: software, failing page');
    results = notices(700_000, 250);
    failPage = 2;
    const summary = await run();
    expect(summary).toMatchObject({ fetched: 0, failed: 1, inserted: 100, pages: 1 });
    expect(asked).toEqual([1, 2]);
    expect(await stored()).toBe(100);
    const { data: source } = await service.from('tender_sources').select('last_error, failures').eq('id', sourceId).single();
    expect(source).toEqual({ last_error: 'The feed answered 503', failures: 1 });
    // Page 1's notices went to the radar's alerts like any run's.
    expect(summary.accounts).toEqual([admin.accountId]);
  });

  it('stops at the source\'s deadline without an error', async () => {
    await newSource('TED: software, slow pages');
    results = notices(600_000, 250);
    delayMs = 700;
    // 1.5 s for the whole source: page 1 takes 0.7 s, page 2 would start with less than the second a page needs.
    const summary = await run({ deadlineMs: 1500 });
    expect(summary).toMatchObject({ fetched: 1, failed: 0, inserted: 100, pages: 1 });
    expect(asked).toEqual([1]);
    const { data: source } = await service.from('tender_sources').select('last_error').eq('id', sourceId).single();
    expect(source!.last_error).toBeNull();
  });
});
