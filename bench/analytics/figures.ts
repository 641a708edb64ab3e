// `npm run bench:analytics`: the analytics screen's one database call
// (analytics_page) as the demo admin, on the demo data and again after
// 100,000 invoices and 100,000 leads (spread over three years, as a grown
// account's are) are added; and the rows of a 10,000-row export read. PGlite
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
  const calls: [label: string, sql: string][] = [
    ['analytics_page: last 30 days', `select public.analytics_page('last_30_days')`],
    ['analytics_page: last year', `select public.analytics_page('last_year')`],
    ['analytics_page: last quarter', `select public.analytics_page('last_quarter')`],
  ];
  const timeAll = async (): Promise<number[]> => {
    const times: number[] = [];
    for (const [, sql] of calls) {
      const run = () => db.batch([{ sql: `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, params: [claims] }, { sql }]);
      for (let i = 0; i < 3; i++) await run();
      const started = performance.now();
      for (let i = 0; i < RUNS; i++) await run();
      times.push((performance.now() - started) / RUNS);
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
  await db.query(
    `insert into public.leads (account_id, name, email, company, source, status, created_at)
     select $1, 'Lead ' || g, 'l' || g || '@bench.test', 'Co', (array['website', 'referral', 'email'])[1 + g % 3], 'new',
            now() - (g % 1095) * interval '1 day'
       from generate_series(1, $2::int) g`,
    [admin.account_id, ROWS],
  );
  await db.exec('analyze public.invoices; analyze public.leads');
  const after = await timeAll();

  console.log(`\n${backend.db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, mean of ${RUNS} calls each\n`);
  console.log(`| call | ms, demo data | ms, +${ROWS.toLocaleString('en-US')} invoices and leads | ratio |`);
  console.log('|---|---|---|---|');
  calls.forEach(([label], i) => console.log(`| ${label} | ${before[i].toFixed(2)} | ${after[i].toFixed(2)} | ${(after[i] / before[i]).toFixed(2)}x |`));
} finally {
  await backend.stop();
}
process.exit(0);
