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
// `BUILD_DIR=build npx react-router build`. (The JSON mail hook: helpdesk-inbound-email.ts.)
// After the run the rows are counted in the database: messages, distinct
// MessageSids, threads, contacts made.
//
//   npm run bench:helpdesk-inbound
//   BENCH_MESSAGES=1000 BENCH_CONCURRENCY=4 npm run bench:helpdesk-inbound
//   BENCH_HTTP=1 npm run bench:helpdesk-inbound
import { handleSmsHook } from '../../app/features/helpdesk/channels/sms-hook.server.ts';
import { twilioSignature } from '../../app/features/helpdesk/channels/twilio.ts';
import { deliveries, load, MESSAGES, printRuns, REPLAY, SENDERS, SITE, startInboundBench } from './helpdesk-inbound-run.ts';

const TOKEN = 'bench-twilio-auth-token-0000000001';

await startInboundBench(async (bench) => {
  const { backend: { db }, app, service, accountId } = bench;
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
  const { runAll, failures } = deliveries(post);

  const loadBefore = load();
  const { ms, times } = await runAll(MESSAGES);
  const loadAfter = load();
  const stored = async () =>
    (await db.query<{ n: string; distinct_sids: string; threads: string; conversations: string; contacts: string }>(
      `select count(*) as n, count(distinct external_id) as distinct_sids, count(distinct conversation_id) as threads,
              (select count(*) from public.conversations where account_id = $1) as conversations,
              (select count(*) from public.contacts where account_id = $1 and phone is not null) as contacts
         from public.messages where account_id = $1 and direction = 'inbound'`, [accountId])).rows[0];
  const first = await stored();
  const replay = await runAll(REPLAY);
  const after = await stored();

  printRuns('inbound SMS', bench, [loadBefore, loadAfter], [
    { label: 'new deliveries', count: MESSAGES, ms, times },
    { label: 'replayed deliveries', count: REPLAY, ...replay },
  ], failures);
  console.log(`stored: ${first.n} messages (${first.distinct_sids} distinct MessageSids) in ${first.threads} threads (${first.conversations} conversations, ${first.contacts} contacts); after the replay: ${after.n} messages, ${after.conversations} conversations, ${after.contacts} contacts`);
  const threads = Math.min(SENDERS, MESSAGES);
  const ok = Number(first.n) === MESSAGES && Number(first.distinct_sids) === MESSAGES && Number(after.n) === MESSAGES && Number(first.threads) === threads
    && Number(after.conversations) === threads && Number(after.contacts) === threads;
  console.log(ok ? 'none lost, none doubled' : 'MISMATCH: messages lost or doubled');
  if (!ok) process.exitCode = 1;
});
