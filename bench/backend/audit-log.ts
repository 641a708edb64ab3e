// `npm run bench:audit-log`: the audit log screen's database calls, as the
// demo admin, on the demo data (44 entries) and again after 100,000 more
// entries written in one transaction (one time for all, as an import's), on
// PGlite or, with BENCH_POSTGRES_URL, PostgreSQL. Each call is timed alone,
// with the session settings a REST request sends, in one round trip.
import { startTestBackend } from '../../supabase/local/testing.ts';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const backend = await startTestBackend({ seed: true, postgresUrl: process.env.BENCH_POSTGRES_URL });
try {
  const { db } = backend;
  const admin = (
    await db.query<{ auth_user_id: string; account_id: string; id: string }>(
      `select auth_user_id, account_id, id from public.users where email = 'demo@opshub.test'`,
    )
  ).rows[0];
  const claims = JSON.stringify({ sub: admin.auth_user_id, role: 'authenticated' });
  const calls: [label: string, sql: string][] = [
    ['audit_log_actions (the filter list, every view)', 'select * from public.audit_log_actions()'],
    ['list_audit_logs: the first page', 'select * from public.list_audit_logs(null, null, 51, 0)'],
    ['list_audit_logs: filtered by an action none has', `select * from public.list_audit_logs(null, 'quote_sent_never', 51, 0)`],
    ['list_audit_logs: a search nothing matches', `select * from public.list_audit_logs('no such words', null, 51, 0)`],
    ['list_audit_logs: a search most entries match', `select * from public.list_audit_logs('lead', null, 51, 0)`],
    ['list_audit_logs: a search of a rare action', `select * from public.list_audit_logs('quote sent', null, 51, 0)`],
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
  const count = async () => Number((await db.query<{ n: string }>(`select count(*) as n from public.audit_logs where account_id = $1`, [admin.account_id])).rows[0].n);
  const before = { entries: await count(), times: await timeAll() };
  await db.query(
    `insert into public.audit_logs (account_id, user_id, action, resource_type, resource_id, new_values)
     select $1, $2, (array['lead_created', 'lead_updated', 'quote_created', 'contact_created'])[1 + g % 4], 'lead',
            gen_random_uuid(), jsonb_build_object('name', 'Lead ' || g)
       from generate_series(1, $3::int) g`,
    [admin.account_id, admin.id, ENTRIES],
  );
  await db.exec('analyze public.audit_logs');
  const after = { entries: await count(), times: await timeAll() };

  console.log(`\n${backend.db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, mean of ${RUNS} calls each\n`);
  console.log(`| call | ms, ${before.entries.toLocaleString('en-US')} entries | ms, ${after.entries.toLocaleString('en-US')} entries |`);
  console.log('|---|---|---|');
  calls.forEach(([label], i) => console.log(`| ${label} | ${before.times[i].toFixed(2)} | ${after.times[i].toFixed(2)} |`));
} finally {
  await backend.stop();
}
process.exit(0);
