// `npm run bench:helpdesk-inbound`: BENCH_MESSAGES (default 10,000, the
// issue's figure) inbound SMS posted through the helpdesk's Twilio webhook
// handler (channels/sms-hook.server.ts: signature check, then receive_sms as
// the service role through the local REST server), BENCH_CONCURRENCY at a
// time (default 8), from BENCH_SENDERS numbers (default 500: new contacts
// and threads first, then messages into existing threads). Reports the
// throughput, the p50/p99 of one post, and checks that none is lost or
// doubled: every message stored once, and a replay of the first
// BENCH_REPLAY (default 200) deliveries (Twilio retries) stores nothing new.
//
// BENCH_HTTP=1: posted over HTTP to the built Worker under `wrangler dev`
// (POST /hooks/sms/<integration>, the route Twilio calls: the Worker's
// fetch handler, the signature against the URL it was called at, then
// receive_sms), instead of calling the handler in this process. Build first:
// `BUILD_DIR=build npx react-router build`.
// After the run the rows are counted in the database: messages, distinct
// MessageSids, threads, contacts made.
//
//   npm run bench:helpdesk-inbound
//   BENCH_MESSAGES=1000 BENCH_CONCURRENCY=4 npm run bench:helpdesk-inbound
//   BENCH_HTTP=1 npm run bench:helpdesk-inbound
import { loadavg } from 'node:os';
import { createClient } from '@supabase/supabase-js';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { startAppServer, type AppServer } from '../../tests/e2e/support/app-server.ts';
import { handleSmsHook } from '../../app/features/helpdesk/channels/sms-hook.server.ts';
import { twilioSignature } from '../../app/features/helpdesk/channels/twilio.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 500);
const REPLAY = Math.min(Number(process.env.BENCH_REPLAY ?? 200), MESSAGES);
const TOKEN = 'bench-twilio-auth-token-0000000001';
const SITE = 'https://ops-hub.bench';
const HTTP = Boolean(process.env.BENCH_HTTP);

const backend = await startTestBackend({ seed: true, postgresUrl: process.env.BENCH_POSTGRES_URL });
let app: AppServer | undefined;
try {
  if (HTTP) {
    app = await startAppServer({ SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey, SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey });
  }
  const { db } = backend;
  const service = createClient(backend.url, backend.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const email = `bench-inbound-${Date.now().toString(36)}@example.test`;
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token, recovery_token,
                             raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(), '', '',
             '{"provider": "email", "providers": ["email"]}', '{"first_name": "Bench", "last_name": "Inbound"}', now(), now())`,
    [email],
  );
  const accountId = (await db.query<{ account_id: string }>('select account_id from public.users where email = $1', [email])).rows[0].account_id;
  const made = await service
    .from('integrations')
    .insert({ account_id: accountId, name: 'Twilio', type: 'sms', config: { account_sid: 'ACbench', auth_token: TOKEN, from_number: '+15550000001' } })
    .select('id')
    .single();
  if (made.error) throw new Error(made.error.message);
  const hookUrl = `${app?.url ?? SITE}/hooks/sms/${made.data.id}`;

  const post = async (i: number): Promise<number> => {
    const params: [string, string][] = [
      ['MessageSid', `SM${String(i).padStart(32, '0')}`], ['AccountSid', 'ACbench'], ['From', `+1555${String(1_000_000 + (i % SENDERS))}`],
      ['To', '+15550000001'], ['Body', `Bench message ${i}: where is my order?`], ['NumMedia', '0'],
    ];
    const request = new Request(hookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': await twilioSignature(TOKEN, hookUrl, params) },
      body: new URLSearchParams(params).toString(),
    });
    const started = performance.now();
    const response = app ? await fetch(request) : await handleSmsHook(request, service);
    if (response.status !== 200) throw new Error(`message ${i}: ${response.status} ${await response.text()}`);
    return performance.now() - started;
  };
  // A post answered with an error is sent again, as the provider would retry it (a delivery stored before
  // the error is then found by its MessageSid, never stored twice); each such answer is counted and reported.
  const failures: string[] = [];
  const deliver = async (i: number): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await post(i);
      } catch (error) {
        failures.push(String(error instanceof Error ? error.message : error).slice(0, 200));
        if (attempt === 3) throw error;
      }
    }
  };
  const runAll = async (count: number) => {
    const times: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const i = next++;
          times.push(await deliver(i));
        }
      }),
    );
    return { ms: performance.now() - started, times: times.sort((a, b) => a - b) };
  };
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

  const loadBefore = loadavg()[0].toFixed(1);
  const { ms, times } = await runAll(MESSAGES);
  const loadAfter = loadavg()[0].toFixed(1);
  const stored = async () =>
    (await db.query<{ n: string; distinct_sids: string; threads: string; conversations: string; contacts: string }>(
      `select count(*) as n, count(distinct external_id) as distinct_sids, count(distinct conversation_id) as threads,
              (select count(*) from public.conversations where account_id = $1) as conversations,
              (select count(*) from public.contacts where account_id = $1 and phone is not null) as contacts
         from public.messages where account_id = $1 and direction = 'inbound'`, [accountId])).rows[0];
  const first = await stored();
  const replay = await runAll(REPLAY);
  const after = await stored();

  console.log(`\n${db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${app ? 'over HTTP through the built Worker (wrangler dev)' : 'the handler in process'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${CONCURRENCY} at a time, ${SENDERS} senders, load average ${loadBefore}–${loadAfter}\n`);
  console.log('| inbound SMS | posts | s | per second | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|---|');
  console.log(`| new deliveries | ${MESSAGES.toLocaleString('en-US')} | ${(ms / 1000).toFixed(1)} | ${(MESSAGES / (ms / 1000)).toFixed(0)} | ${pct(times, 50).toFixed(1)} | ${pct(times, 99).toFixed(1)} |`);
  console.log(`| replayed deliveries | ${REPLAY.toLocaleString('en-US')} | ${(replay.ms / 1000).toFixed(1)} | ${(REPLAY / (replay.ms / 1000)).toFixed(0)} | ${pct(replay.times, 50).toFixed(1)} | ${pct(replay.times, 99).toFixed(1)} |`);
  console.log(`\nposts answered with an error and sent again: ${failures.length}${failures.length ? ` (${[...new Set(failures.map((f) => f.replace(/^message \d+: /, '')))].join('; ')})` : ''}`);
  console.log(`stored: ${first.n} messages (${first.distinct_sids} distinct MessageSids) in ${first.threads} threads (${first.conversations} conversations, ${first.contacts} contacts); after the replay: ${after.n} messages, ${after.conversations} conversations, ${after.contacts} contacts`);
  const threads = Math.min(SENDERS, MESSAGES);
  const ok = Number(first.n) === MESSAGES && Number(first.distinct_sids) === MESSAGES && Number(after.n) === MESSAGES && Number(first.threads) === threads
    && Number(after.conversations) === threads && Number(after.contacts) === threads;
  console.log(ok ? 'none lost, none doubled' : 'MISMATCH: messages lost or doubled');
  if (!ok) process.exitCode = 1;
} finally {
  await app?.stop();
  await backend.stop();
}
