// The demo tender feed (issue 38; decision 092): the local backend serves an OCDS release package at
// /_demo/tenders.json (answering 304 to its own ETag), the seed's demo source points at this backend
// whatever its port, and the first run of the feed job, allowed to reach this backend by name as npm start
// allows it (FEED_ALLOW_HOSTS), fills the demo account's radar. Production (wrangler.toml, no allow list)
// still refuses that address.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Backend } from '../../supabase/local/index.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { DEMO_FEED_PATH, demoTenderPackage, pointDemoFeedAt } from '../../supabase/local/demo-tenders.ts';
import { allowedHosts } from '../../app/lib/address-policy.ts';
import { feedUrlProblem } from '../../app/features/rfp/feeds/fetch-feed.server.ts';
import { parseFeed } from '../../app/features/rfp/feeds/parse.ts';
import { runTenderFeeds } from '../../app/features/rfp/feeds/run-feeds.server.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';

describe('the demo tender feed of the local stack', () => {
  let backend: Backend;
  let service: SupabaseClient;
  const feedUrl = () => `${backend.url}${DEMO_FEED_PATH}`;

  beforeAll(async () => {
    backend = await startTestBackend({ seed: true, smtpPort: false });
    service = createClient(backend.url, backend.serviceRoleKey, { auth: { persistSession: false } });
  }, 120_000);
  afterAll(async () => backend?.stop());

  it('serves an OCDS release package whose deadlines are open, and answers its ETag with 304', async () => {
    const response = await fetch(feedUrl());
    expect(response.status).toBe(200);
    const notices = parseFeed('ocds', await response.text());
    expect(notices).toHaveLength(6);
    expect(notices[0]).toMatchObject({ title: 'Cloud hosting and managed Kubernetes platform', buyer: 'Leeds City Council', currency: 'GBP' });
    expect(notices.every((n) => n.deadline !== null && Date.parse(n.deadline) > Date.now())).toBe(true);
    const again = await fetch(feedUrl(), { headers: { 'If-None-Match': response.headers.get('ETag')! } });
    expect(again.status).toBe(304);
    // The deadlines count from the day given (the demo source's seeding day), not from each fetch.
    expect(JSON.stringify(demoTenderPackage(new Date('2026-01-01T00:00:00Z')))).toContain('2026-01-29T12:00:00.000Z');
  });

  it('points the seeded source at this backend, and the first feed run fills the demo account\'s radar', async () => {
    const { data: source } = await service.from('tender_sources').select('url').eq('name', 'Contracts Finder (demo)').single();
    expect(source!.url).toBe(feedUrl());
    expect(await pointDemoFeedAt(backend.db, backend.url)).toBe(false);
    const summary = await runTenderFeeds(service as never, new Date(Date.now() + 60_000), { allow: allowedHosts(new URL(backend.url).host) });
    expect(summary).toMatchObject({ fetched: 1, failed: 0, inserted: 6 });
    const dana = createClient(backend.url, backend.anonKey, { auth: { persistSession: false } });
    const { error: signInError } = await dana.auth.signInWithPassword(DEMO_ADMIN);
    expect(signInError).toBeNull();
    const { data: matches, error } = await dana.rpc('radar_matches', { p_search: null, p_today: new Date().toISOString().slice(0, 10) });
    expect(error).toBeNull();
    expect((matches as { title: string; score: number }[]).map((m) => [m.title, m.score])).toEqual([
      ['Cloud hosting and managed Kubernetes platform', 83],
      ['Logistics software for warehouse operations', 67],
      ['Compliance management system', 50],
      ['IT service desk and field support', 50],
    ]);
  });

  it('is refused in production: no allow list there, and a loopback feed is not public', () => {
    const vars = readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8');
    expect(vars).not.toMatch(/FEED_ALLOW_HOSTS/);
    expect(feedUrlProblem(feedUrl(), allowedHosts(undefined))).toBe('Use the address of a public feed');
    expect(feedUrlProblem('http://127.0.0.1:54321/_demo/tenders.json', allowedHosts(''))).toBe('Use the address of a public feed');
  });
});
