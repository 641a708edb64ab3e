// `npm run bench:sorted-lists`: the record table's sorted pages (issue 32,
// decision 053), one row per list and sortable column and direction, for an
// account with 10 rows and one with 100,000 (BENCH_ROWS), on PGlite or, with
// BENCH_POSTGRES_URL, PostgreSQL. Each page is the query PostgREST runs for
// `?sort=<column>&dir=<dir>` (order by the column, then the id; 21 rows from
// the page's offset) as the account's admin, row-level security on, timed
// alone with the session settings a REST request sends, in one round trip;
// the median of BENCH_RUNS calls (a mean on a shared machine is one stall's).
// Target: the 100,000-row account within 1.5x of the 10-row one. One more
// row per list sorts the big account by a column without an index (email),
// to show what a sort that is not flat costs.
//
//   npm run bench:sorted-lists
//   BENCH_LISTS=leads BENCH_ROWS=100000 BENCH_RUNS=20 BENCH_EXPLAIN=1 npm run bench:sorted-lists
//
// The Worker's share of a page does not grow with the account (it renders 20
// rows either way), so the database's call is what is measured here;
// bench/business/screens.ts times whole page views.
import { startTestBackend } from '../../supabase/local/testing.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SMALL = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const TARGET = 1.5;
const LISTS = (process.env.BENCH_LISTS ?? 'leads,invoices').split(',');

/** Each list: its table, the columns the page selects, its sortable columns (the app's *_SORTS) and how its rows are made. */
const SPECS: Record<string, { table: string; columns: string; sorts: string[]; unindexed: string; seed: string }> = {
  leads: {
    table: 'leads',
    columns: 'id, name, company, email, phone_whatsapp, status, interest, created_at',
    sorts: ['name', 'company', 'created_at'],
    unindexed: 'email',
    seed: `insert into public.leads (account_id, name, email, company, status, created_at)
           select $1, 'Lead ' || g, 'lead' || g || '@example.test', 'Firm ' || (g % 50),
                  (array['new', 'qualified', 'contacted', 'lost'])[1 + g % 4], now() - g * interval '7 minutes'
             from generate_series(1, $2::int) g`,
  },
  // Through every trigger (numbering, amounts, audit, rollups), as the app's inserts.
  invoices: {
    table: 'invoices',
    columns: 'id, invoice_number, status, client_name, client_email, currency, total, amount_paid, due_date, created_at, quote_id',
    sorts: ['invoice_number', 'client_name', 'total', 'due_date', 'created_at'],
    unindexed: 'client_email',
    seed: `insert into public.invoices (account_id, client_name, client_email, currency, subtotal, status, due_date, created_at)
           select $1, 'Client ' || g, 'client' || g || '@example.test', (array['USD', 'EUR', 'GBP'])[1 + g % 3], 1000 + g % 997 * 100,
                  (array['draft', 'sent', 'pending', 'overdue'])[1 + g % 4], current_date + (g % 90), now() - g * interval '7 minutes'
             from generate_series(1, $2::int) g`,
  },
  clients: {
    table: 'contacts',
    columns: 'id, name, email, phone, company, role, address, status, created_at',
    sorts: ['name', 'company', 'created_at'],
    unindexed: 'email',
    seed: `insert into public.contacts (account_id, name, email, company, created_at)
           select $1, 'Contact ' || g, 'contact' || g || '@example.test', 'Company ' || (g % 50), now() - g * interval '7 minutes'
             from generate_series(1, $2::int) g`,
  },
};

const backend = await startTestBackend({ seed: true, postgresUrl: process.env.BENCH_POSTGRES_URL });
try {
  const { db } = backend;
  // Two accounts through the real sign-up trigger (an auth.users insert makes an account and its admin).
  const stamp = Date.now().toString(36);
  const accounts: Record<'small' | 'big', { account_id: string; auth_user_id: string }> = {} as never;
  for (const key of ['small', 'big'] as const) {
    const email = `bench-sort-${key}-${stamp}@example.test`;
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token, recovery_token,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(), '', '',
               '{"provider": "email", "providers": ["email"]}', '{"first_name": "Bench", "last_name": "Sort"}', now(), now())`,
      [email],
    );
    accounts[key] = (await db.query<{ account_id: string; auth_user_id: string }>('select account_id, auth_user_id from public.users where email = $1', [email])).rows[0];
  }

  const seedStarted = performance.now();
  for (const name of LISTS) {
    const spec = SPECS[name];
    if (!spec) throw new Error(`BENCH_LISTS: no list named ${name} (${Object.keys(SPECS).join(', ')})`);
    await db.query(spec.seed, [accounts.small.account_id, SMALL]);
    await db.query(spec.seed, [accounts.big.account_id, ROWS]);
  }
  await db.exec('analyze');
  console.error(`[bench] seeded ${LISTS.join(', ')}: ${SMALL} + ${ROWS} rows each in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

  const claimsOf = (key: 'small' | 'big') => JSON.stringify({ sub: accounts[key].auth_user_id, role: 'authenticated' });
  const run = (key: 'small' | 'big', sql: string) =>
    db.batch([{ sql: `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, params: [claimsOf(key)] }, { sql }]);
  /** Median ms of RUNS calls, the two accounts alternating so the machine's other load falls on both alike. */
  const timePair = async (sql: string): Promise<{ small: number; big: number }> => {
    for (let i = 0; i < 3; i++) {
      await run('small', sql);
      await run('big', sql);
    }
    const times = { small: [] as number[], big: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      for (const key of i % 2 === 0 ? (['small', 'big'] as const) : (['big', 'small'] as const)) {
        const started = performance.now();
        await run(key, sql);
        times[key].push(performance.now() - started);
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    return { small: median(times.small), big: median(times.big) };
  };

  const explain = async (sql: string) => {
    const plan = await db.batch([
      { sql: `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, params: [claimsOf('big')] },
      { sql: `explain (analyze, costs off) ${sql}` },
    ]);
    console.log(`\n${sql}\n${(plan.at(-1)?.rows ?? []).map((r) => String(Object.values(r)[0])).join('\n')}`);
  };
  const lines: string[] = [];
  let missed = 0;
  for (const name of LISTS) {
    const spec = SPECS[name];
    for (const column of spec.sorts) {
      for (const dir of ['asc', 'desc']) {
        // The first page, as a header link opens it (?page=N is the same read from further along the index).
        const sql = `select ${spec.columns} from public.${spec.table} order by ${column} ${dir}, id ${dir} limit 21 offset 0`;
        const t = await timePair(sql);
        const ratio = t.big / t.small;
        if (ratio > TARGET) missed++;
        lines.push(`| /${name}?sort=${column}&dir=${dir} | ${t.small.toFixed(2)} | ${t.big.toFixed(2)} | ${ratio.toFixed(2)}x | ${ratio <= TARGET ? 'met' : '**missed**'} |`);
        if (process.env.BENCH_EXPLAIN) await explain(sql);
      }
    }
    // Not allowed by the app (no index): the whole account read and sorted.
    const sql = `select ${spec.columns} from public.${spec.table} order by ${spec.unindexed} asc, id asc limit 21 offset 0`;
    const t = await timePair(sql);
    lines.push(`| (not sortable) ${name} by ${spec.unindexed} | ${t.small.toFixed(2)} | ${t.big.toFixed(2)} | ${(t.big / t.small).toFixed(2)}x | reference |`);
    if (process.env.BENCH_EXPLAIN) await explain(sql);
  }

  console.log(`\n${db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, median of ${RUNS} calls each\n`);
  console.log(`| sorted page | ms, ${SMALL} rows | ms, ${ROWS.toLocaleString('en-US')} rows | ratio | target ${TARGET}x |`);
  console.log('|---|---|---|---|---|');
  for (const line of lines) console.log(line);
  console.log(missed ? `\n${missed} sorted pages missed the target` : '\nEvery sorted page within the target');
} finally {
  await backend.stop();
}
process.exit(0);
