// Benchmark: the automations engine (decisions 067, 080). N events of the
// outbox through 10 active automations (every event matches every one:
// N x 10 runs, each an assign_task whose task is written in the run's
// transaction), driven by run_automations as the jobs runner's step calls it,
// in batches of 1,000 (the step takes 500). In the middle a runner is
// "killed": its batch runs inside a transaction that never commits (as a
// worker torn down mid-run leaves it), and the next runner takes the same
// pairs. Measured: runs per second; checked: runs = events x automations,
// no (automation, event) twice, one task per run, none lost.
//   npm run bench:automations                       (BENCH_EVENTS=10000 by default)
//   BENCH_EVENTS=500 npm run bench:automations      a small round
//   BENCH_POSTGRES_URL=postgres://… npm run bench:automations   on PostgreSQL instead of PGlite
import { startTestBackend } from '../../supabase/local/testing.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const AUTOMATIONS = 10;
const BATCH = 1000;
const backend = await startTestBackend({ seed: true, postgresUrl: process.env.BENCH_POSTGRES_URL });
const db = backend.db;
const one = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows[0];

try {
  const { account_id: accountId, id: userId } = await one<{ account_id: string; id: string }>(
    `select account_id, id from public.users where email = 'demo@opshub.test'`);
  // The demo's own automations stay out of the count.
  await db.query(`update public.automations set status = 'paused' where account_id = $1`, [accountId]);
  await db.query(
    `insert into public.automations (account_id, name, trigger_kind, status, action_kind, action_settings)
     select $1, 'Bench ' || n, 'lead_created', 'active', 'assign_task', jsonb_build_object('assignee_id', $2::text, 'title', 'Call {{name}}')
       from generate_series(1, $3::int) n`,
    [accountId, userId, AUTOMATIONS]);
  await db.query(
    `insert into public.events (account_id, kind, resource_type, payload)
     select $1, 'lead_created', 'leads', jsonb_build_object('name', 'Bench lead ' || n, 'email', 'lead' || n || '@bench.test')
       from generate_series(1, $2::int) n`,
    [accountId, EVENTS]);
  const expected = EVENTS * AUTOMATIONS;

  const started = performance.now();
  let batches = 0;
  let killed = false;
  let killedRuns = 0;
  for (;;) {
    const done = await one<{ n: number }>('select count(*)::int as n from public.automation_runs r join public.automations a on a.id = r.automation_id where a.name like $1', ['Bench %']);
    if (!killed && done.n >= expected / 2) {
      // The killed runner: its whole batch is rolled back, as a torn-down worker's transaction is.
      await db.query('begin');
      killedRuns = (await db.query(`select id from public.run_automations($1)`, [BATCH])).rows.length;
      await db.query('rollback');
      killed = true;
      continue;
    }
    const { rows } = await db.query(`select id from public.run_automations($1)`, [BATCH]);
    batches += 1;
    if (rows.length === 0) break;
  }
  const seconds = (performance.now() - started) / 1000;

  const check = await one<{ runs: number; pairs: number; doubled: number; tasks: number; not_succeeded: number }>(
    `select count(*)::int as runs,
            count(distinct (r.automation_id, r.event_id))::int as pairs,
            (select count(*)::int from (select 1 from public.automation_runs r2 join public.automations a2 on a2.id = r2.automation_id
                                         where a2.name like 'Bench %' group by r2.automation_id, r2.event_id having count(*) > 1) d) as doubled,
            (select count(*)::int from public.tasks t join public.automation_runs r3 on r3.id = t.automation_run_id
                                  join public.automations a3 on a3.id = r3.automation_id where a3.name like 'Bench %') as tasks,
            count(*) filter (where r.status <> 'succeeded')::int as not_succeeded
       from public.automation_runs r join public.automations a on a.id = r.automation_id where a.name like 'Bench %'`);
  const row = {
    backend: process.env.BENCH_POSTGRES_URL ? 'PostgreSQL' : 'PGlite',
    events: EVENTS, automations: AUTOMATIONS, expected, ...check,
    lost: expected - check.pairs, killedRuns, batches, seconds: Number(seconds.toFixed(1)), runsPerSecond: Math.round(check.runs / seconds),
  };
  console.log(JSON.stringify(row));
  if (check.runs !== expected || check.pairs !== expected || check.doubled !== 0 || check.tasks !== expected || check.not_succeeded !== 0) {
    process.exitCode = 1;
    console.error('automations bench: runs lost or doubled');
  }
} finally {
  await backend.stop();
}
