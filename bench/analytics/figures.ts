// `npm run bench:analytics`: the analytics screen's one database call
// (analytics_page) as the demo admin, on the demo data and again after
// 100,000 invoices and 100,000 leads (spread over three years, as a grown
// account's are) are added, each call timed in turn with the same call of a
// small account (the seed's Northwind), so the ratio is taken under the same
// load of the machine. PGlite
// or, with BENCH_POSTGRES_URL, PostgreSQL. Each call is timed alone, with the
// session settings a REST request sends, in one round trip.
import { startTestBackend } from '../../supabase/local/testing.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const backend = await startTestBackend({ seed: true, postgresUrl: process.env.BENCH_POSTGRES_URL });
try {
  const { db } = backend;
  const admin = (
    await db.query<{ auth_user_id: string; account_id: string }>(`select auth_user_id, account_id from public.users where email = 'demo@opshub.test'`)
  ).rows[0];
  const claims = JSON.stringify({ sub: admin.auth_user_id, role: 'authenticated' });
  // A small account beside it (the seed's Northwind), timed in turn with the
  // demo account, call for call: the machine's other load falls on both.
  const small = (await db.query<{ auth_user_id: string }>(`select auth_user_id from public.users where email = 'admin@northwind.test'`)).rows[0];
  const smallClaims = JSON.stringify({ sub: small.auth_user_id, role: 'authenticated' });
  const calls: [label: string, sql: string][] = [
    ['analytics_page: last 30 days', `select public.analytics_page('last_30_days')`],
    ['analytics_page: last year', `select public.analytics_page('last_year')`],
    ['analytics_page: last quarter', `select public.analytics_page('last_quarter')`],
  ];
  const as = (who: string, sql: string) => () =>
    db.batch([{ sql: `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, params: [who] }, { sql }]);
  /** Mean ms per call of the demo account and of the small one, interleaved. */
  const timeAll = async (): Promise<{ demo: number; small: number }[]> => {
    const times: { demo: number; small: number }[] = [];
    for (const [, sql] of calls) {
      const demo = as(claims, sql);
      const other = as(smallClaims, sql);
      // Warm up as long as the measure: the first calls plan and cache.
      for (let i = 0; i < RUNS; i++) {
        await demo();
        await other();
      }
      let demoMs = 0;
      let smallMs = 0;
      for (let i = 0; i < RUNS; i++) {
        let started = performance.now();
        await demo();
        demoMs += performance.now() - started;
        started = performance.now();
        await other();
        smallMs += performance.now() - started;
      }
      times.push({ demo: demoMs / RUNS, small: smallMs / RUNS });
    }
    return times;
  };
  const before = await timeAll();
  await db.query(`set session_replication_role = replica`);
  await db.query(
    `insert into public.invoices (account_id, client_name, client_email, currency, total, amount_paid, due_date, status, created_at)
     select $1, 'Client ' || g, 'c' || g || '@bench.test', (array['USD', 'EUR', 'GBP'])[1 + g % 3], 10000 + g, 0,
            (now() - (g % 1095) * interval '1 day')::date + 30, (array['sent', 'paid', 'overdue', 'draft'])[1 + g % 4],
            now() - (g % 1095) * interval '1 day'
       from generate_series(1, $2::int) g`,
    [admin.account_id, ROWS],
  );
  await db.query(`reset session_replication_role`);
  // The invoices went in with their triggers off: rebuild the invoice rollups
  // from the rows, as the triggers keep them, so the figures that read them
  // are timed on the full book.
  await db.query(`delete from private.invoice_totals where account_id = $1`, [admin.account_id]);
  await db.query(
    `insert into private.invoice_totals (account_id, currency, status, invoice_count, total_sum, paid_sum)
     select account_id, currency, status, count(*), sum(total), sum(amount_paid) from public.invoices where account_id = $1 group by 1, 2, 3`,
    [admin.account_id],
  );
  await db.query(`delete from private.invoice_stats where account_id = $1`, [admin.account_id]);
  await db.query(
    `insert into private.invoice_stats (account_id, currency, status, day, invoice_count, total_sum, paid_sum)
     select account_id, currency, status, (created_at at time zone 'UTC')::date, count(*), sum(total), sum(amount_paid)
       from public.invoices where account_id = $1 group by 1, 2, 3, 4`,
    [admin.account_id],
  );
  await db.query(`select private.rebuild_analytics_money_rollups($1)`, [admin.account_id]);
  await db.query(
    `insert into public.leads (account_id, name, email, company, source, status, created_at)
     select $1, 'Lead ' || g, 'l' || g || '@bench.test', 'Co', (array['website', 'referral', 'email'])[1 + g % 3], 'new',
            now() - (g % 1095) * interval '1 day'
       from generate_series(1, $2::int) g`,
    [admin.account_id, ROWS],
  );
  // 100,000 trigger upserts leave the rollups' pages full of dead row
  // versions: vacuum them, as autovacuum would have on a real account.
  for (const table of ['public.invoices', 'public.leads', 'private.lead_day_stats', 'private.lead_month_stats', 'private.invoice_day_stats', 'private.invoice_month_stats', 'private.invoice_totals']) {
    await db.query(`vacuum analyze ${table}`);
  }
  const after = await timeAll();

  console.log(`\n${backend.db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, mean of ${RUNS} calls each\n`);
  console.log(`| call | ms, small account (Northwind) | ms, demo data | ms, demo +${ROWS.toLocaleString('en-US')} invoices and leads | ratio to the small account |`);
  console.log('|---|---|---|---|---|');
  calls.forEach(([label], i) =>
    console.log(`| ${label} | ${after[i].small.toFixed(2)} | ${before[i].demo.toFixed(2)} | ${after[i].demo.toFixed(2)} | ${(after[i].demo / after[i].small).toFixed(2)}x |`),
  );
} finally {
  await backend.stop();
}
process.exit(0);
