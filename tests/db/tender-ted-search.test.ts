// TED's search by POST (issue 38; decision 092) against a local HTTP server standing in for
// https://api.ted.europa.eu/v3/notices/search: a TED source with an expert query POSTs it as TED documents
// the request ({ query, fields, page, limit, scope, paginationMode }); no conditional headers go with it,
// and a repeat stores nothing twice (each notice once per source and notice id). A redirect that would
// turn the search into a GET is refused; only a TED source may keep a query.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { runTenderFeeds } from '../../app/features/rfp/feeds/run-feeds.server.ts';
import { TED_SEARCH_FIELDS } from '../../app/features/rfp/feeds/ted.ts';
import { serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const QUERY = 'classification-cpv IN (72000000) AND buyer-country IN (DEU) SORT BY publication-number DESC';

const requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[] = [];
let server: Server;

function serve(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    if (path === '/moved') return res.writeHead(302, { Location: '/v3/notices/search' }).end();
    if (path !== '/v3/notices/search' || req.method !== 'POST') return res.writeHead(405).end();
    res.writeHead(200, { 'Content-Type': 'application/json', ETag: '"not-for-a-post"' }).end(JSON.stringify({
      totalNoticeCount: 1,
      notices: [{
        'publication-number': '701234-2026', 'notice-title': { eng: 'Cloud platform for the city archive', deu: 'Cloud-Plattform' },
        'buyer-name': { deu: ['Stadt Köln'] }, 'buyer-country': ['DEU'], 'classification-cpv': ['72200000'],
        'deadline-receipt-tender-date-lot': [`${inDays(25)}+01:00`], 'publication-date': '2026-11-25+01:00',
        'estimated-value-proc': ['800000'], 'estimated-value-cur-proc': ['EUR'],
        links: { html: { ENG: 'https://ted.europa.eu/en/notice/-/detail/701234-2026' } },
      }],
    }));
  });
}

describe('a TED source that POSTs its expert query', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let base: string;
  let allow: Set<string>;
  let sourceId: string;

  beforeAll(async () => {
    server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    allow = new Set([`127.0.0.1:${port}`]);
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'ted-search-admin');
    // The seed's demo source (the backend's own feed, decision 092) would be fetched too: these runs count only this file's.
    await service.from('tender_sources').delete().eq('name', 'Contracts Finder (demo)');
    const { data, error } = await admin.client.from('tender_sources')
      .insert({ name: 'TED: IT in Germany', url: `${base}/v3/notices/search`, format: 'ted', query: QUERY }).select('id').single();
    if (error) throw new Error(error.message);
    sourceId = data.id;
  }, 120_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await backend?.stop();
  });

  it('POSTs the query with the fields the parser reads, and stores the notice', async () => {
    const summary = await runTenderFeeds(service as never, new Date(Date.now() + 60_000), { allow, timeoutMs: 2000 });
    expect(summary).toMatchObject({ fetched: 1, failed: 0, inserted: 1 });
    const [request] = requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3/notices/search' });
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      query: QUERY, fields: [...TED_SEARCH_FIELDS], page: 1, limit: 100, scope: 'ACTIVE', paginationMode: 'PAGE_NUMBER',
    });
    const { data } = await service.from('opportunities').select('notice_id, title, buyer, country, value, currency, url').eq('source_id', sourceId);
    expect(data).toEqual([{
      notice_id: '701234-2026', title: 'Cloud platform for the city archive', buyer: 'Stadt Köln', country: 'DE', value: 80_000_000,
      currency: 'EUR', url: 'https://ted.europa.eu/en/notice/-/detail/701234-2026',
    }]);
  });

  it('asks again the next hour without conditional headers, and stores nothing twice', async () => {
    const summary = await runTenderFeeds(service as never, new Date(Date.now() + 62 * 60_000), { allow, timeoutMs: 2000 });
    expect(summary).toMatchObject({ fetched: 1, notModified: 0, inserted: 0, amended: 0 });
    expect(requests).toHaveLength(2);
    expect(requests[1].headers['if-none-match']).toBeUndefined();
    expect(requests[1].headers['if-modified-since']).toBeUndefined();
    expect((await service.from('opportunities').select('id', { count: 'exact', head: true }).eq('source_id', sourceId)).count).toBe(1);
  });

  it('refuses a redirect that would drop the search, and a query on a source that is not TED', async () => {
    await service.from('tender_sources').update({ url: `${base}/moved` }).eq('id', sourceId);
    const summary = await runTenderFeeds(service as never, new Date(Date.now() + 130 * 60_000), { allow, timeoutMs: 2000 });
    expect(summary).toMatchObject({ failed: 1 });
    const { data: source } = await service.from('tender_sources').select('last_error').eq('id', sourceId).single();
    expect(source!.last_error).toBe('The search answered 302: it would not be sent on as a POST');
    const wrong = await admin.client.from('tender_sources')
      .insert({ name: 'Not TED', url: 'https://www.contractsfinder.service.gov.uk/feed', format: 'ocds', query: QUERY });
    expect(wrong.error?.message).toMatch(/tender_sources_query_is_ted/);
    const controls = await admin.client.from('tender_sources')
      .insert({ name: 'TED 2', url: 'https://api.ted.europa.eu/v3/notices/search', format: 'ted', query: 'a\nb' });
    expect(controls.error?.message).toMatch(/check constraint/);
  });
});
