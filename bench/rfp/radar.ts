// Benchmark: the tender radar in the database (issue 38; decision 079), on the local backend (PGlite):
//  1. ingest: BENCH_NOTICES notices (10,000) stored through ingest_tender_notices in the feed job's
//     batches of 1,000 (its per-fetch cap), then the same notices again: notices per second, and none
//     doubled (the count stays, every second pass is 'unchanged');
//  2. the radar: radar_matches for a saved search, as the account's admin through the REST API, for an
//     account with 10 opportunities and one with BENCH_OPPORTUNITIES (100,000), alternating; target: the
//     big account's p50 within 1.5x of the small one's.
//
//   node bench/rfp/radar.ts                                     (Node 24: it runs the .ts as is)
//   BENCH_NOTICES=2000 BENCH_OPPORTUNITIES=20000 BENCH_ROUNDS=20 node bench/rfp/radar.ts
import { createClient } from '@supabase/supabase-js';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { signUpFreshAdmin, type TestBackend } from '../../tests/db/support/backend.ts';

const NOTICES = Number(process.env.BENCH_NOTICES ?? 10_000);
const BIG = Number(process.env.BENCH_OPPORTUNITIES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const TARGET = 1.5;
const log = (message: string) => console.error(`[bench] ${message}`);

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
    log(`ingest (${pass}): ${NOTICES} notices in ${seconds.toFixed(1)} s, ${(NOTICES / seconds).toFixed(0)}/s, ${JSON.stringify(totals)}`);
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
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = p50(latencies.big) / p50(latencies.small);
  log(`radar p50: small (10) ${p50(latencies.small).toFixed(1)} ms, big (${BIG}) ${p50(latencies.big).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (target ${TARGET})`);
  if (ratio > TARGET) process.exitCode = 1;
} finally {
  await backend.stop();
}
