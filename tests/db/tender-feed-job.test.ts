// The hourly tender feed job (issue 38; decision 079) against a real HTTP server this test starts on
// loopback (allowed by name, as the SMTP tests allow theirs; production allows nothing): an OCDS release
// package, a TED search response, RSS and Atom stored once per source and notice id; an ETag and a
// Last-Modified answered 304; an amended notice noted; a failing, a slow, an oversized, a redirecting and a
// non-JSON feed each marked with its error and retried later while the others go on; each source fetched
// once per hour. (The tables and functions themselves: tender-radar.test.ts.)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { runTenderFeeds, type FeedRunSummary } from '../../app/features/rfp/feeds/run-feeds.server.ts';
import { FEED_FETCH_LIMITS, feedUrlProblem } from '../../app/features/rfp/feeds/fetch-feed.server.ts';
import { serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

let ocdsVersion = 1;
const ocds = () => JSON.stringify({
  uri: 'https://www.contractsfinder.service.gov.uk/Published/Notices/OCDS/Search',
  releases: [
    {
      ocid: 'ocds-b5fd17-0001', date: '2026-11-20T09:00:00Z', buyer: { id: 'GB-1', name: 'Leeds City Council' },
      parties: [{ id: 'GB-1', name: 'Leeds City Council', roles: ['buyer'], address: { countryName: 'United Kingdom' } }],
      tender: {
        title: 'Cloud hosting <b>services</b>', value: { amount: ocdsVersion === 1 ? 250000 : 300000, currency: 'GBP' },
        tenderPeriod: { endDate: `${inDays(ocdsVersion === 1 ? 30 : 45)}T12:00:00Z` },
        items: [{ classification: { scheme: 'CPV', id: '72200000' } }],
        documents: [{ url: 'https://www.contractsfinder.service.gov.uk/notice/1' }],
      },
    },
    { ocid: 'ocds-b5fd17-0002', date: '2026-11-21T09:00:00Z', tender: { title: 'School catering' } },
  ],
});
const ted = JSON.stringify({
  totalNoticeCount: 1,
  notices: [{
    'publication-number': '712345-2026', 'notice-title': { eng: 'Data centre maintenance' }, 'buyer-name': { deu: ['Stadt Köln'] },
    'buyer-country': ['DEU'], 'classification-cpv': ['50312000'], 'deadline-receipt-tender-date-lot': [`${inDays(20)}+01:00`],
    'publication-date': '2026-11-22+01:00', 'estimated-value-lot': ['1200000'], 'estimated-value-cur-lot': ['EUR'],
  }],
});
const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Tenders</title>
  <item><title>Network cabling &amp; switches</title><link>https://tenders.example.org/t/1</link><guid>t-1</guid><pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate></item>
  <item><title>Office furniture</title><link>https://tenders.example.org/t/2</link><guid>t-2</guid></item>
</channel></rss>`;
const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Notices</title>
  <entry><id>urn:notice:1</id><title type="html">&lt;i&gt;Street lighting&lt;/i&gt;</title><link href="https://notices.example.org/1"/><updated>2026-11-24T08:00:00Z</updated></entry>
</feed>`;

const hits: Record<string, number> = {};
const conditionalHits: Record<string, number> = {};
let server: Server;
let base: string;

function serve(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '/').split('?')[0];
  hits[path] = (hits[path] ?? 0) + 1;
  const etag = `"ocds-v${ocdsVersion}"`;
  switch (path) {
    case '/ocds.json':
      if (req.headers['if-none-match'] === etag) {
        conditionalHits[path] = (conditionalHits[path] ?? 0) + 1;
        return res.writeHead(304, { ETag: etag }).end();
      }
      return res.writeHead(200, { 'Content-Type': 'application/json', ETag: etag }).end(ocds());
    case '/ted.json':
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(ted);
    case '/rss.xml': {
      const lastModified = 'Mon, 23 Nov 2026 10:00:00 GMT';
      if (req.headers['if-modified-since'] === lastModified) {
        conditionalHits[path] = (conditionalHits[path] ?? 0) + 1;
        return res.writeHead(304).end();
      }
      return res.writeHead(200, { 'Content-Type': 'application/rss+xml', 'Last-Modified': lastModified }).end(rss);
    }
    case '/atom.xml':
      return res.writeHead(200, { 'Content-Type': 'application/atom+xml' }).end(atom);
    case '/broken':
      return res.writeHead(500).end('oops');
    case '/not-json':
      return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Maintenance</body></html>');
    case '/redirect':
      return res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
    case '/slow': {
      // Headers at once, then a byte now and then: only a deadline over the whole exchange ends it.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case '/huge': {
      // 3 MB in chunks, no Content-Length: the cap counts what streams in.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 48) {
          sent += 1;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => {});
      return more();
    }
    default:
      return res.writeHead(404).end();
  }
}

describe('the tender feed job against a local feed server', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  const ids: Record<string, string> = {};
  let allow: Set<string>;
  const t0 = Date.now() + 60_000;
  const at = (minutes: number) => new Date(t0 + minutes * 60_000);
  type Counts = Omit<FeedRunSummary, 'accounts'>;
  const run = async (minutes: number, allowed = allow): Promise<Counts> => {
    // A run takes 8 sources at most: run until one takes none, adding up.
    const total: Counts = { fetched: 0, notModified: 0, failed: 0, inserted: 0, amended: 0, pages: 0 };
    for (;;) {
      const summary = await runTenderFeeds(service as never, at(minutes), { allow: allowed, timeoutMs: 1500 });
      for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += summary[key];
      if (summary.fetched + summary.notModified + summary.failed === 0) return total;
    }
  };
  const sourceState = async (name: string) =>
    (await service.from('tender_sources').select('last_error, failures, etag, last_modified').eq('id', ids[name]).single()).data!;

  beforeAll(async () => {
    server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    allow = new Set([`127.0.0.1:${port}`]);
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'feed-job-admin');
    // The seed's demo source (the backend's own feed, decision 092) would be fetched too: these runs count only this file's.
    await service.from('tender_sources').delete().eq('name', 'Contracts Finder (demo)');
    const sources: [string, string][] = [
      ['ocds', 'ocds'], ['ted', 'ted'], ['rss', 'rss'], ['atom', 'rss'], ['broken', 'rss'], ['not-json', 'ocds'], ['redirect', 'rss'],
      ['slow', 'ted'], ['huge', 'ocds'],
    ];
    const paths: Record<string, string> = { ocds: '/ocds.json', ted: '/ted.json', rss: '/rss.xml', atom: '/atom.xml' };
    for (const [name, format] of sources) {
      const { data, error } = await admin.client.from('tender_sources')
        .insert({ name, url: `${base}${paths[name] ?? `/${name}`}`, format }).select('id').single();
      if (error) throw new Error(error.message);
      ids[name] = data.id;
    }
  }, 120_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await backend?.stop();
  });

  it('refuses private, loopback and link-local feeds unless allowed by name', async () => {
    for (const url of ['http://127.0.0.1/feed', 'http://localhost:8080/', 'http://10.1.2.3/', 'http://[::1]/', 'http://169.254.169.254/',
      'http://2130706433/', 'http://0x7f.1/', 'http://intranet/feed', 'http://feeds.internal/x', 'http://[fd00::1]/']) {
      expect(feedUrlProblem(url, new Set()), url).toBe('Use the address of a public feed');
    }
    expect(feedUrlProblem('https://www.contractsfinder.service.gov.uk/feed', new Set())).toBeNull();
    expect(feedUrlProblem('https://api.ted.europa.eu:25/x', new Set())).toMatch(/web port/);
    expect(feedUrlProblem('javascript:alert(1)', new Set())).toMatch(/https:\/\//);
    expect(FEED_FETCH_LIMITS).toMatchObject({ maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000 });
    // The job, without the allow list: every source refused, nothing fetched from the server.
    const refused = await run(0, new Set());
    expect(refused).toMatchObject({ fetched: 0, failed: 9 });
    expect((await sourceState('ocds')).last_error).toBe('Use the address of a public feed');
    expect(hits['/ocds.json']).toBeUndefined();
  });

  it('stores every format\'s notices once per source, and marks each failing feed with its error while the others go on', async () => {
    // Retried 15 minutes after the failure.
    const summary = await run(16);
    expect(summary).toMatchObject({ fetched: 4, failed: 5, inserted: 6, amended: 0 });
    const { data: rows } = await service.from('opportunities').select('source_id, notice_id, title, buyer, country, cpv_codes, value, currency, deadline')
      .order('notice_id');
    const bySource = (name: string) => rows!.filter((r) => r.source_id === ids[name]);
    expect(bySource('ocds').map((r) => r.notice_id)).toEqual(['ocds-b5fd17-0001', 'ocds-b5fd17-0002']);
    expect(bySource('ocds')[0]).toMatchObject({
      title: 'Cloud hosting services', buyer: 'Leeds City Council', country: 'GB', cpv_codes: ['72200000'], value: 25_000_000, currency: 'GBP',
    });
    expect(bySource('ted')[0]).toMatchObject({ notice_id: '712345-2026', country: 'DE', value: 120_000_000, currency: 'EUR', cpv_codes: ['50312000'] });
    expect(bySource('rss').map((r) => r.title)).toEqual(['Network cabling & switches', 'Office furniture']);
    expect(bySource('atom').map((r) => r.title)).toEqual(['Street lighting']);
    expect(await sourceState('broken')).toMatchObject({ last_error: 'The feed answered 500', failures: 2 });
    expect((await sourceState('not-json')).last_error).toBe('Not JSON');
    expect((await sourceState('redirect')).last_error).toBe('The feed redirects to an address that is refused: Use the address of a public feed');
    expect((await sourceState('slow')).last_error).toBe('The feed did not answer within 2 s');
    expect((await sourceState('huge')).last_error).toBe('The feed is larger than 2 MB');
    expect(await sourceState('ocds')).toMatchObject({ last_error: null, failures: 0, etag: '"ocds-v1"' });
    expect((await sourceState('rss')).last_modified).toBe('Mon, 23 Nov 2026 10:00:00 GMT');
  });

  it('fetches a source once per hour, asks conditionally, and notes an amended notice', async () => {
    const before = hits['/ocds.json'];
    // Within the hour: the good feeds are not fetched again (the failing ones are retried, 30 minutes on).
    const within = await run(50);
    expect(within).toMatchObject({ fetched: 0, notModified: 0, failed: 5 });
    expect(hits['/ocds.json']).toBe(before);
    // The next hour: the OCDS feed's ETag and the RSS feed's Last-Modified answer 304; the others are read again, unchanged.
    const next = await run(77);
    expect(next).toMatchObject({ notModified: 2, fetched: 2, inserted: 0, amended: 0 });
    expect(conditionalHits).toEqual({ '/ocds.json': 1, '/rss.xml': 1 });
    // The buyer moves the deadline and raises the value: the feed's ETag changes, the notice is amended once.
    ocdsVersion = 2;
    const amended = await run(140);
    expect(amended).toMatchObject({ amended: 1, inserted: 0 });
    const { data: notices } = await service.from('opportunities').select('change_note, value').eq('notice_id', 'ocds-b5fd17-0001');
    expect(notices).toHaveLength(1);
    expect(notices![0]).toMatchObject({
      value: 30_000_000,
      change_note: `Deadline moved from ${inDays(30)} to ${inDays(45)}; value changed from GBP 250,000.00 to GBP 300,000.00`,
    });
    expect((await service.from('opportunities').select('id', { count: 'exact', head: true })).count).toBe(6);
  });
});
