// `npm run bench:helpdesk-inbound-email`: BENCH_MESSAGES (default 10,000)
// inbound mails posted to the helpdesk's JSON mail hook (POST /hooks/email,
// inbound/email-hook.server.ts) exactly as a provider posts them: a JSON body
// signed with the mailbox's inbound secret (X-OpsHub-Timestamp, and
// X-OpsHub-Signature = sha256=HMAC-SHA256("<timestamp>.<body>"), computed here
// with node:crypto as the provider computes it, not with the app's function).
// The mailbox is made as the settings page makes it (public.inbound_mailbox()
// as the account's admin).
//
// From BENCH_SENDERS addresses (default 500): first BENCH_THREADS new threads
// (default 1,000: each address opens two, one after the other, so both are
// in flight at once: one new contact, never two), then replies, round the
// threads in turn. A reply is threaded
// one of two ways: one in three by the conversation's token in the reply
// address (`<mailbox>+<token>@…`, what the helpdesk's own replies carry; the
// reply has no In-Reply-To or References, as some clients send it), the others
// by In-Reply-To (the thread's previous message) and References (its first
// and previous). One mail in ten (i mod 10 = 3) is posted as `raw` (the
// RFC 5322 message, multipart/mixed) with a 3 KB attachment, which goes into
// Storage; one in seven carries HTML only. The replay resends the first
// BENCH_REPLAY deliveries (default 200), each signed again with a new
// timestamp as a provider's retry is.
//
// Counted after, in the database: messages and distinct Message-IDs, every
// message in its thread's conversation, conversations, contacts, attachment
// rows and Storage objects; the same after the replay. Exits non-zero on a
// mismatch. BENCH_CONCURRENCY, BENCH_HTTP, BENCH_POSTGRES_URL as in
// helpdesk-inbound.ts (shared: helpdesk-inbound-run.ts). In process, the
// handler is imported through app-imports.mjs (the app's `~/` imports);
// node 24 with --experimental-transform-types, as the npm script runs it.
//
//   npm run bench:helpdesk-inbound-email
//   BENCH_POSTGRES_URL=postgres://… npm run bench:helpdesk-inbound-email
//   BUILD_DIR=build-emailbench npx react-router build && BUILD_DIR=build-emailbench BENCH_HTTP=1 BENCH_MESSAGES=2000 npm run bench:helpdesk-inbound-email
import { createHmac } from 'node:crypto';
import { register } from 'node:module';
import { deliveries, load, MESSAGES, printRuns, REPLAY, SENDERS, SITE, startInboundBench } from './helpdesk-inbound-run.ts';

register('./app-imports.mjs', import.meta.url);
// A path in a variable: the bench's TypeScript project (tsconfig.node.json) does not read the app's `~/` imports.
const HOOK_MODULE = '../../app/features/helpdesk/inbound/email-hook.server.ts';
type BenchEnv = { SUPABASE_URL: string; SUPABASE_ANON_KEY: string; SUPABASE_SERVICE_ROLE_KEY: string };
const { handleEmailHook } = (await import(HOOK_MODULE)) as { handleEmailHook: (request: Request, env: BenchEnv) => Promise<Response> };

const THREADS = Math.min(Number(process.env.BENCH_THREADS ?? 1_000), MESSAGES);
const DOMAIN = 'inbound.ops-hub.bench';
const ATTACHMENT = Buffer.from(Array.from({ length: 3 * 1024 }, (_, i) => `row ${i % 97},${(i * 7) % 13}\n`).join('').slice(0, 3 * 1024));

/** Which thread message i belongs to, and the message before it in that thread (null: it opens the thread). */
const threadOf = (i: number) => (i < THREADS ? i : (i - THREADS) % THREADS);
const previousIn = (i: number) => (i < THREADS ? null : i - THREADS);
const messageId = (i: number) => `<bench-${i}@customer.example>`;
const customerOf = (i: number) => Math.floor((threadOf(i) * SENDERS) / THREADS);
const senderOf = (i: number) => `customer${customerOf(i)}@customer.example`;
const hasAttachment = (i: number) => i % 10 === 3;
const byToken = (i: number) => i >= THREADS && (i - THREADS) % 3 === 0;

function rawMessage(fields: { to: string; from: string; subject: string; text: string; message_id: string; in_reply_to?: string; references?: string }, i: number): string {
  const boundary = `bench-boundary-${i}`;
  return [
    `From: ${fields.from}`, `To: ${fields.to}`, `Subject: ${fields.subject}`, `Message-ID: ${fields.message_id}`,
    ...(fields.in_reply_to ? [`In-Reply-To: ${fields.in_reply_to}`] : []), ...(fields.references ? [`References: ${fields.references}`] : []),
    'Date: Fri, 27 Nov 2026 06:00:00 +0000', 'MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/plain; charset=utf-8', '', fields.text, '',
    `--${boundary}`, `Content-Type: text/csv; name="order-${i}.csv"`, `Content-Disposition: attachment; filename="order-${i}.csv"`,
    'Content-Transfer-Encoding: base64', '', ...(ATTACHMENT.toString('base64').match(/.{1,76}/g) ?? []), '',
    `--${boundary}--`, '',
  ].join('\r\n');
}

await startInboundBench(async (bench) => {
  const { backend: { db }, app, accountId, authUserId } = bench;
  // The mailbox as an admin opens it in the settings (its local part and signing secret made on first read).
  const mailbox = await db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true), set_config('role', 'authenticated', true)`,
      [JSON.stringify({ sub: authUserId, role: 'authenticated' }), authUserId]);
    return (await tx.query<{ local_part: string; secret: string }>('select * from public.inbound_mailbox()')).rows[0];
  });
  const env: BenchEnv = { SUPABASE_URL: bench.backend.url, SUPABASE_ANON_KEY: bench.backend.anonKey, SUPABASE_SERVICE_ROLE_KEY: bench.backend.serviceRoleKey };
  const hookUrl = `${app?.url ?? SITE}/hooks/email`;

  // Each thread's conversation, from the answer to its first mail (a reply by token needs its reply address).
  const conversations: Promise<string>[] = [];
  const opened: ((id: string) => void)[] = [];
  for (let t = 0; t < THREADS; t++) conversations.push(new Promise((resolve) => (opened[t] = resolve)));
  const tokens = new Map<string, Promise<string>>();
  const tokenOf = (conversation: string) => {
    if (!tokens.has(conversation)) {
      tokens.set(conversation, db.query<{ reply_token: string }>('select reply_token from public.conversations where id = $1', [conversation]).then((r) => r.rows[0].reply_token));
    }
    return tokens.get(conversation)!;
  };

  const bodies: string[] = [];
  const bodyOf = async (i: number): Promise<string> => {
    if (bodies[i]) return bodies[i];
    const thread = threadOf(i);
    const previous = previousIn(i);
    const to = byToken(i) ? `${mailbox.local_part}+${await tokenOf(await conversations[thread])}@${DOMAIN}` : `${mailbox.local_part}@${DOMAIN}`;
    const fields = {
      to, from: `Customer ${customerOf(i)} <${senderOf(i)}>`, subject: previous === null ? `Order ${thread}: where is it?` : `Re: Order ${thread}: where is it?`,
      message_id: messageId(i),
      ...(previous !== null && !byToken(i) ? { in_reply_to: messageId(previous), references: [messageId(thread), ...(previous !== thread ? [messageId(previous)] : [])].join(' ') } : {}),
      text: `Bench mail ${i}: my order has not arrived yet.\n\n-- \nCustomer ${customerOf(i)}`,
    };
    const json = hasAttachment(i)
      ? { to, raw: rawMessage(fields, i) }
      : i % 7 === 0 ? { ...fields, text: undefined, html: `<p>Bench mail ${i}: my order has <b>not</b> arrived yet.</p>` } : fields;
    return (bodies[i] = JSON.stringify(json));
  };

  const post = async (i: number): Promise<number> => {
    const body = await bodyOf(i);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = `sha256=${createHmac('sha256', mailbox.secret).update(`${timestamp}.${body}`).digest('hex')}`;
    const request = new Request(hookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-OpsHub-Timestamp': timestamp, 'X-OpsHub-Signature': signature },
      body,
    });
    const started = performance.now();
    const response = app ? await fetch(request) : await handleEmailHook(request, env);
    const ms = performance.now() - started;
    const text = await response.text();
    if (response.status !== 200) throw new Error(`message ${i}: ${response.status} ${text}`);
    if (previousIn(i) === null) opened[threadOf(i)]((JSON.parse(text) as { conversation_id: string }).conversation_id);
    return ms;
  };
  const { runAll, failures } = deliveries(post);

  const loadBefore = load();
  const { ms, times } = await runAll(MESSAGES);
  const loadAfter = load();
  const stored = async () =>
    (await db.query<{ n: string; distinct_ids: string; threads: string; conversations: string; contacts: string; attachments: string; objects: string }>(
      `select count(*) as n, count(distinct external_id) as distinct_ids, count(distinct conversation_id) as threads,
              (select count(*) from public.conversations where account_id = $1) as conversations,
              (select count(*) from public.contacts where account_id = $1) as contacts,
              (select count(*) from public.message_attachments where account_id = $1) as attachments,
              (select count(*) from storage.objects where bucket_id = 'helpdesk' and name like $1::text || '/%') as objects
         from public.messages where account_id = $1 and direction = 'inbound'`, [accountId])).rows[0];
  const first = await stored();
  // Every message in the conversation its thread's first mail opened.
  const placed = (await db.query<{ external_id: string; conversation_id: string }>(
    `select external_id, conversation_id from public.messages where account_id = $1 and direction = 'inbound'`, [accountId])).rows;
  const roots = await Promise.all(conversations);
  const misplaced = placed.filter((m) => {
    const i = Number(/^<bench-(\d+)@/.exec(m.external_id)?.[1]);
    return roots[threadOf(i)] !== m.conversation_id;
  }).length;
  const replay = await runAll(REPLAY);
  const after = await stored();

  const withAttachment = Array.from({ length: MESSAGES }, (_, i) => i).filter(hasAttachment).length;
  const tokenReplies = Array.from({ length: MESSAGES }, (_, i) => i).filter(byToken).length;
  printRuns('inbound mail (JSON hook)', bench, [loadBefore, loadAfter], [
    { label: 'new deliveries', count: MESSAGES, ms, times },
    { label: 'replayed deliveries', count: REPLAY, ...replay },
  ], failures, `, ${THREADS} threads (${MESSAGES - THREADS} replies: ${tokenReplies} by the reply address's token, ${MESSAGES - THREADS - tokenReplies} by In-Reply-To/References), ${withAttachment} with a 3 KB attachment (raw MIME)`);
  console.log(`stored: ${first.n} messages (${first.distinct_ids} distinct Message-IDs, ${misplaced} outside their thread) in ${first.threads} threads (${first.conversations} conversations, ${first.contacts} contacts), ${first.attachments} attachments (${first.objects} Storage objects); after the replay: ${after.n} messages, ${after.conversations} conversations, ${after.contacts} contacts, ${after.attachments} attachments (${after.objects} objects)`);
  const contacts = Math.min(SENDERS, THREADS);
  const ok = Number(first.n) === MESSAGES && Number(first.distinct_ids) === MESSAGES && misplaced === 0 && Number(first.threads) === THREADS
    && Number(first.conversations) === THREADS && Number(first.contacts) === contacts && Number(first.attachments) === withAttachment && Number(first.objects) === withAttachment
    && Number(after.n) === MESSAGES && Number(after.conversations) === THREADS && Number(after.contacts) === contacts
    && Number(after.attachments) === withAttachment && Number(after.objects) === withAttachment;
  console.log(ok ? 'none lost, none doubled, every reply in its thread' : 'MISMATCH: messages lost, doubled or misthreaded');
  if (!ok) process.exitCode = 1;
});
