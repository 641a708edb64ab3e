// Benchmark: the tender radar in the database (issue 38; decision 079), on the local backend (PGlite):
//  1. ingest: BENCH_NOTICES notices (10,000) stored through ingest_tender_notices in the feed job's
//     batches of 1,000 (its per-fetch cap), then the same notices again: notices per second, and none
//     doubled (the count stays, every second pass is 'unchanged');
//  2. the radar: radar_matches for a saved search, as the account's admin through the REST API, for an
//     account with 10 opportunities and one with BENCH_OPPORTUNITIES (100,000), alternating; target: the
//     big account's p50 within 1.5x of the small one's.
//
//  3. EXPLAIN ANALYZE of the radar's two statements for the big account (the candidates by index, then
//     their scoring), so what grows with the account shows; the machine's load (os.loadavg) beside it all.
//
//   node bench/rfp/radar.ts                                     (Node 24: it runs the .ts as is)
//   BENCH_NOTICES=2000 BENCH_OPPORTUNITIES=20000 BENCH_ROUNDS=20 node bench/rfp/radar.ts
import { loadavg } from 'node:os';
import { createClient } from '@supabase/supabase-js';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { signUpFreshAdmin, type TestBackend } from '../../tests/db/support/backend.ts';

const NOTICES = Number(process.env.BENCH_NOTICES ?? 10_000);
const BIG = Number(process.env.BENCH_OPPORTUNITIES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const TARGET = 1.5;
const log = (message: string) => console.error(`[bench] ${message}`);
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

const backend = await startTestBackend({ quiet: true });
const service = createClient(backend.url, backend.serviceRoleKey, { auth: { persistSession: false } });
// One clock for both passes: the second must send the very same notices.
const base = Date.now();
const day = (n: number) => new Date(base + n * 86_400_000).toISOString();

/** A fresh account's admin (signed up through the real path), with its client and account. */
async function account(label: string) {
  const member = await signUpFreshAdmin(backend as unknown as TestBackend, `bench-radar-${label}`);
  return { client: member.client, accountId: member.accountId };
}

const notice = (i: number) => ({
  sourceId: `bench-${i}`, title: i % 1000 === 0 ? `Cloud hosting services lot ${i}` : `Road maintenance lot ${i}`, buyer: 'City Council',
  country: 'GB', cpv: [i % 1000 === 0 ? '72200000' : '45233142'], value: 10_000_000 + i, currency: 'GBP', deadline: day(10 + (i % 60)),
  url: `https://notices.example.org/${i}`, raw: { i },
});

try {
  // 1. Ingest.
  const ingestAccount = await account('ingest');
  const { data: source } = await ingestAccount.client.from('tender_sources').insert({ name: 'Bench', url: 'https://feeds.example.org/bench.json', format: 'ocds' }).select('id').single();
  for (const pass of ['first', 'again'] as const) {
    const started = performance.now();
    const totals = { inserted: 0, amended: 0, unchanged: 0 };
    for (let from = 0; from < NOTICES; from += 1000) {
      const batch = Array.from({ length: Math.min(1000, NOTICES - from) }, (_, k) => notice(from + k));
      const { data, error } = await service.rpc('ingest_tender_notices', { p_source: source!.id, p_notices: batch }).single();
      if (error) throw error;
      const row = data as typeof totals;
      totals.inserted += row.inserted; totals.amended += row.amended; totals.unchanged += row.unchanged;
    }
    const seconds = (performance.now() - started) / 1000;
    log(`ingest (${pass}): ${NOTICES} notices in ${seconds.toFixed(1)} s, ${(NOTICES / seconds).toFixed(0)}/s, ${JSON.stringify(totals)}; load average ${load()}`);
  }
  const { rows: [{ count }] } = await backend.db.query<{ count: number }>('select count(*)::int as count from public.opportunities where source_id = $1', [source!.id]);
  log(`stored: ${count} (expected ${NOTICES}: ${count === NOTICES ? 'none doubled' : 'DOUBLED OR LOST'})`);

  // 2. The radar, small and big account.
  const sizes = { small: 10, big: BIG };
  const who: Record<string, Awaited<ReturnType<typeof account>> & { search: string }> = {};
  for (const [key, size] of Object.entries(sizes)) {
    const a = await account(key);
    const { data: src, error: srcError } = await a.client.from('tender_sources').insert({ name: key, url: `https://feeds.example.org/${key}.json`, format: 'ocds' }).select('id').single();
    if (srcError) throw new Error(`source of ${key}: ${srcError.message}`);
    // Straight into the table (the ingest path is measured above). Both accounts have the same 10 notices
    // about hosting, so both answers are the same size: what the big account adds is 99,990 notices the
    // radar must not read.
    // In slices of 10,000, letting the backend's HTTP server breathe between them (PGlite runs in its process).
    for (let from = 1; from <= size; from += 10_000) {
      await backend.db.query(
        `insert into public.opportunities (account_id, source_id, notice_id, title, buyer, country, cpv_codes, value, currency, deadline)
         select $1, $2, 'n-' || g, case when g % greatest($4::int / 10, 1) = 0 then 'Cloud hosting services lot ' else 'Road maintenance lot ' end || g, 'City Council', 'GB',
                array[case when g % greatest($4::int / 10, 1) = 0 then '72200000' else '45233142' end], 10000000 + g, 'GBP', now() + ((10 + g % 60) || ' days')::interval
           from generate_series($3::int, least($3::int + 9999, $4::int)) g`, [a.accountId, src!.id, from, size]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { data: search, error: searchError } = await a.client.from('tender_searches')
      .insert({ name: 'Hosting', keywords: ['cloud hosting', 'kubernetes'], cpv_codes: ['72000000'], countries: ['GB'], min_value: 1000, min_currency: 'GBP' })
      .select('id').single();
    if (searchError) throw new Error(`search of ${key}: ${searchError.message}`);
    who[key] = { ...a, search: search!.id };
  }
  await backend.db.query('analyze public.opportunities');
  const today = new Date().toISOString().slice(0, 10);
  const latencies: Record<string, number[]> = { small: [], big: [] };
  for (let round = 0; round < ROUNDS + 3; round++) {
    for (const key of round % 2 ? ['small', 'big'] : ['big', 'small']) {
      const t = performance.now();
      const { data, error } = await who[key].client.rpc('radar_matches', { p_search: who[key].search, p_today: today, p_limit: 100 });
      if (error || !data?.length) throw new Error(`radar ${key}: ${error?.message ?? 'no matches'}`);
      if (round >= 3) latencies[key].push(performance.now() - t);
    }
  }
  const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
  const ratio = at(latencies.big, 0.5) / at(latencies.small, 0.5);
  for (const key of ['small', 'big']) {
    log(`radar ${key} (${key === 'small' ? 10 : BIG}): p50 ${at(latencies[key], 0.5).toFixed(1)} ms, p99 ${at(latencies[key], 0.99).toFixed(1)} ms (${latencies[key].length} calls)`);
  }
  log(`radar p50 ratio big/small ${ratio.toFixed(2)} (target ${TARGET}); load average ${load()}`);

  // 3. Where the big account's time goes: the radar's statements as radar_scored runs them, with its settings,
  //    and radar_scored's own time in the database for each account (no HTTP, no REST: what grows with the data).
  const searchOf = async (key: string) => (await backend.db.query<{ id: string; account_id: string }>(
    'select id, account_id from public.tender_searches where id = $1', [who[key].search])).rows[0];
  const explain = async (label: string, sql: string, params: unknown[]) => {
    const { rows } = await backend.db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off, timing on) ${sql}`, params);
    log(`EXPLAIN ANALYZE ${label}:\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`);
  };
  const scored = 'select count(*) from private.radar_scored((select t from public.tender_searches t where t.id = $1), $2::date, 100)';
  await backend.db.query('set enable_seqscan = off');
  for (const key of ['small', 'big']) {
    const search = await searchOf(key);
    await explain(`candidates of the ${key} account (keywords or CPV)`, `
      select coalesce(array_agg(x.id), '{}') from (
        select o.id from public.opportunities o where o.search @@ private.any_keyword_query($2) and o.account_id = $1
        union
        select o.id from public.opportunities o where o.cpv_groups && $3 and o.account_id = $1
      ) x`, [search.account_id, ['cloud hosting', 'kubernetes'], ['72000000']]);
  }
  await backend.db.query('reset enable_seqscan');
  const inDb: Record<string, number[]> = { small: [], big: [] };
  for (let round = 0; round < ROUNDS + 3; round++) {
    for (const key of round % 2 ? ['small', 'big'] : ['big', 'small']) {
      const t = performance.now();
      await backend.db.query(scored, [who[key].search, today]);
      if (round >= 3) inDb[key].push(performance.now() - t);
    }
  }
  for (const key of ['small', 'big']) {
    log(`radar_scored in the database, ${key}: p50 ${at(inDb[key], 0.5).toFixed(2)} ms, p99 ${at(inDb[key], 0.99).toFixed(2)} ms`);
  }
  log(`in the database, p50 ratio big/small ${(at(inDb.big, 0.5) / at(inDb.small, 0.5)).toFixed(2)}`);
  log(`load average at the end ${load()}`);
} finally {
  await backend.stop();
}
