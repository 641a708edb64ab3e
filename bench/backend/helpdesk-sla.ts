// `npm run bench:helpdesk-sla`: the helpdesk inbox's SLA reads (decision 075)
// for an account with 10 conversations and one with BENCH_ROWS (default
// 20,000; the figure is 100,000), on PGlite or, with
// BENCH_POSTGRES_URL, PostgreSQL: the inbox's first page, 'Breached', 'Due
// soon' and a tag, each as the account's admin with row-level security on,
// the median of BENCH_RUNS calls (the method of bench/backend/sorted-lists.ts).
// Target: the big account within 1.5x of the small one. Also: seeding the
// conversations through the deadline trigger (business time per row), and one
// breach sweep over the big account (each deadline recorded once).
//
//   npm run bench:helpdesk-sla
//   BENCH_ROWS=100000 BENCH_RUNS=20 BENCH_EXPLAIN=1 npm run bench:helpdesk-sla
import { startTestBackend } from '../../supabase/local/testing.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const SMALL = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TARGET = 1.5;
const COLUMNS = 'id, subject, status, channel, priority, unread, last_message_at, created_at, assignee_id, sla_due_at, tags';

const backend = await startTestBackend({ seed: true, postgresUrl: process.env.BENCH_POSTGRES_URL });
try {
  const { db } = backend;
  const stamp = Date.now().toString(36);
  const accounts: Record<'small' | 'big', { account_id: string; auth_user_id: string }> = {} as never;
  for (const key of ['small', 'big'] as const) {
    const email = `bench-sla-${key}-${stamp}@example.test`;
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token, recovery_token,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(), '', '',
               '{"provider": "email", "providers": ["email"]}', '{"first_name": "Bench", "last_name": "Sla"}', now(), now())`,
      [email],
    );
    accounts[key] = (await db.query<{ account_id: string; auth_user_id: string }>('select account_id, auth_user_id from public.users where email = $1', [email])).rows[0];
  }
  // Conversations spread over the last weeks, through every trigger (deadlines in business time, audit).
  const seed = `with c as (insert into public.contacts (account_id, name, email) values ($1::uuid, 'Bench contact', 'bench-' || $1::text || '@example.test') returning id)
    insert into public.conversations (account_id, contact_id, subject, status, priority, tags, created_at, last_message_at)
    select $1::uuid, c.id, 'Case ' || g, (array['open', 'open', 'open', 'pending'])[1 + g % 4],
           (array['low', 'normal', 'high', 'urgent'])[1 + g % 4], case when g % 10 = 0 then '{vip}'::text[] else '{}' end,
           now() - g * interval '2 minutes', now() - g * interval '2 minutes'
      from c, generate_series(1, $2::int) g`;
  await db.query(seed, [accounts.small.account_id, SMALL]);
  const seedStarted = performance.now();
  await db.query(seed, [accounts.big.account_id, ROWS]);
  const seedMs = performance.now() - seedStarted;
  await db.exec('analyze');
  console.error(`[bench] seeded ${SMALL} + ${ROWS} conversations in ${(seedMs / 1000).toFixed(1)} s`);

  const claimsOf = (key: 'small' | 'big') => JSON.stringify({ sub: accounts[key].auth_user_id, role: 'authenticated' });
  const run = (key: 'small' | 'big', sql: string) =>
    db.batch([{ sql: `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, params: [claimsOf(key)] }, { sql }]);
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
  // As loadInbox reads it: newest activity first, or with an SLA filter the most urgent first.
  const page = (where: string, order = 'last_message_at desc, id desc') =>
    `select ${COLUMNS} from public.inbox_conversations(null, false) where merged_into_id is null ${where} order by ${order} limit 21`;
  const soon = `now() + interval '1 hour'`;
  const reads: [string, string][] = [
    ['/messages (first page)', page('')],
    ['/messages?sla=breached', page(`and sla_due_at <= now()`, 'sla_due_at asc, id asc')],
    ['/messages?sla=due_soon', page(`and sla_due_at > now() and sla_due_at <= ${soon}`, 'sla_due_at asc, id asc')],
    ['/messages?tag=vip', page(`and tags @> '{vip}'`)],
  ];
  const lines: string[] = [];
  let missed = 0;
  for (const [name, sql] of reads) {
    const t = await timePair(sql);
    const ratio = t.big / t.small;
    if (ratio > TARGET) missed++;
    lines.push(`| ${name} | ${t.small.toFixed(2)} | ${t.big.toFixed(2)} | ${ratio.toFixed(2)}x | ${ratio <= TARGET ? 'met' : '**missed**'} |`);
    if (process.env.BENCH_EXPLAIN) {
      const plan = await db.batch([
        { sql: `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, params: [claimsOf('big')] },
        { sql: `explain (analyze, costs off) ${sql}` },
      ]);
      console.log(`\n${sql}\n${(plan.at(-1)?.rows ?? []).map((r) => String(Object.values(r)[0])).join('\n')}`);
    }
  }
  const sweepStarted = performance.now();
  const swept = await db.query<{ n: number }>('select public.helpdesk_sla_sweep(now()) as n');
  const sweepMs = performance.now() - sweepStarted;
  const again = performance.now();
  const sweptAgain = await db.query<{ n: number }>('select public.helpdesk_sla_sweep(now()) as n');
  const againMs = performance.now() - again;

  console.log(`\n${db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, median of ${RUNS} calls each\n`);
  console.log(`| inbox read | ms, ${SMALL} conversations | ms, ${ROWS.toLocaleString('en-US')} conversations | ratio | target ${TARGET}x |`);
  console.log('|---|---|---|---|---|');
  for (const line of lines) console.log(line);
  console.log(`\nseeding ${ROWS.toLocaleString('en-US')} conversations through the deadline trigger: ${(seedMs / 1000).toFixed(1)} s (${((seedMs * 1000) / ROWS).toFixed(0)} µs each)`);
  console.log(`breach sweep: ${swept.rows[0].n} breaches recorded in ${sweepMs.toFixed(0)} ms; run again: ${sweptAgain.rows[0].n} in ${againMs.toFixed(0)} ms`);
  console.log(missed ? `\n${missed} reads missed the target` : '\nEvery read within the target');
} finally {
  await backend.stop();
}
process.exit(0);
