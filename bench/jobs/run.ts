// Benchmark: the jobs runner's throughput for queued mail (decision 021).
// The built Worker runs under `wrangler dev` (workerd) and its scheduled
// handler, the Cron Trigger's, is driven through /cdn-cgi/handler/scheduled as
// `npm start` drives it. It claims `mail.send` jobs from the local backend and
// sends each through the demo account's email integration: the backend's own
// SMTP listener, which keeps every message in the outbox (/_outbox). Measured:
// jobs per second from the first tick until no job of the round is queued or
// running, with one runner (ticks one after another) and with two (two ticks
// at once, as a cron tick and an action's kick overlap). Checked: every job
// done, one run record each, and exactly one message in the outbox per job
// (its subject carries the job's idempotency key), so none was sent twice.
//   npx react-router build && npm run bench:jobs
//   BENCH_POSTGRES_URL=postgres://… npm run bench:jobs    on PostgreSQL instead of PGlite
//   BENCH_JOBS=1000 (jobs per round)
import { randomUUID } from 'node:crypto';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { startAppServer, freePort } from '../../tests/e2e/support/app-server.ts';
import { runHeader } from '../support/stack.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const postgresUrl = process.env.BENCH_POSTGRES_URL;

interface OutboxMessage {
  subject: string;
  via?: string;
}

const port = await freePort();
const backend = await startTestBackend({ seed: true, siteUrl: `http://127.0.0.1:${port}`, postgresUrl });
if (!backend.smtpPort) throw new Error('the local backend has no SMTP listener');
// The runner's secret and the platform mail API, as `npm start` passes them
// (startAppServer runs wrangler with --test-scheduled, as `npm start` does).
const app = await startAppServer(
  {
    SUPABASE_URL: backend.url,
    SUPABASE_ANON_KEY: backend.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
    MAIL_API_URL: `${backend.url}/_mail`,
    // The backend's SMTP listener, allowed by name as npm start allows it (decision 039).
    SMTP_ALLOW_HOSTS: `127.0.0.1:${backend.smtpPort}`,
  },
  port,
);

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const { rows } = await backend.db.query<T>(sql, params);
  return rows[0];
}

/** One tick of the Cron Trigger: answers when the Worker's scheduled handler has finished. */
async function tick(): Promise<void> {
  const response = await fetch(`${app.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the scheduled handler answered ${response.status}`);
}

async function round(runners: number) {
  const label = randomUUID().slice(0, 8);
  const { id: accountId } = await one<{ id: string }>(
    `select account_id as id from public.users where email = 'demo@opshub.test'`);
  await backend.db.query(
    `select private.enqueue_job('mail.send', $1,
            jsonb_build_object('to', 'reader' || i || '@bench.test', 'subject', 'Bench ' || $2 || ':' || i,
                               'text', 'Mail ' || i || ' of the jobs benchmark.'),
            $2 || ':' || i)
       from generate_series(1, $3) i`,
    [accountId, label, JOBS]);
  const started = performance.now();
  let ticks = 0;
  for (;;) {
    await Promise.all(Array.from({ length: runners }, () => tick()));
    ticks += runners;
    const { open } = await one<{ open: number }>(
      `select count(*)::int as open from public.jobs where idempotency_key like $1 || ':%' and status in ('queued', 'running')`,
      [label]);
    if (open === 0) break;
  }
  const seconds = (performance.now() - started) / 1000;

  const states = await one<{ done: number; failed: number; runs: number; extra_runs: number }>(
    `select count(*) filter (where j.status = 'done')::int as done, count(*) filter (where j.status = 'failed')::int as failed,
            (select count(*)::int from public.job_runs r join public.jobs k on k.id = r.job_id where k.idempotency_key like $1 || ':%') as runs,
            count(*) filter (where j.attempts <> 1)::int as extra_runs
       from public.jobs j where j.idempotency_key like $1 || ':%'`,
    [label]);
  const outbox = (await (await fetch(`${backend.url}/_outbox`)).json()) as OutboxMessage[];
  const perKey = new Map<string, number>();
  let viaSmtp = 0;
  for (const message of outbox) {
    if (!message.subject.startsWith(`Bench ${label}:`)) continue;
    perKey.set(message.subject, (perKey.get(message.subject) ?? 0) + 1);
    if (message.via === 'smtp') viaSmtp += 1;
  }
  const twice = [...perKey.values()].filter((n) => n > 1).length;
  const missing = JOBS - perKey.size;
  return { runners, ticks, seconds, jobsPerSecond: JOBS / seconds, ...states, messages: [...perKey.values()].reduce((a, b) => a + b, 0), viaSmtp, twice, missing };
}

try {
  // The demo account's mail goes through its email integration: the backend's SMTP listener.
  const { id: accountId } = await one<{ id: string }>(`select account_id as id from public.users where email = 'demo@opshub.test'`);
  // It is made the account's mail route (decision 039), in place of the seed's "Company SMTP".
  await backend.db.query(`update public.integrations set is_default_mail_route = false where account_id = $1`, [accountId]);
  await backend.db.query(
    `insert into public.integrations (account_id, name, type, is_active, is_default_mail_route, config)
     values ($1, 'Bench SMTP', 'email', true, true, $2)`,
    [accountId, JSON.stringify({ smtp_host: '127.0.0.1', smtp_port: backend.smtpPort, smtp_user: 'bench', smtp_password: 'bench', from_email: 'bench@ops-hub.test' })]);
  // Warm-up: the Worker's first request compiles its modules.
  await tick();

  const results = [];
  for (const runners of [1, 2]) results.push(await round(runners));

  console.log(`\n${runHeader()}, ${postgresUrl ? 'PostgreSQL' : 'PGlite'}, ${JOBS} mail.send jobs per round, SMTP to the local backend's listener\n`);
  console.log('| runners at once | ticks | seconds | jobs/s | done | failed | run records | jobs run more than once | messages | via SMTP | sent twice | not sent |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.runners} | ${r.ticks} | ${r.seconds.toFixed(1)} | ${r.jobsPerSecond.toFixed(1)} | ${r.done} | ${r.failed} | ${r.runs} | ${r.extra_runs} | ${r.messages} | ${r.viaSmtp} | ${r.twice} | ${r.missing} |`);
  }
  const broken = results.filter((r) => r.twice > 0 || r.missing > 0 || r.done !== JOBS || r.runs !== JOBS);
  if (broken.length > 0) {
    console.error('\nFAILED: a job was sent twice, not sent, or not done once');
    process.exitCode = 1;
  }
} finally {
  await app.stop();
  await backend.stop();
}
