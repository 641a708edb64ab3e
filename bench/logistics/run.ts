// Benchmark (issue 36): carrier webhooks and the shipments list at scale,
// against the built Worker under `wrangler dev` and the local backend.
//
// 1. BENCH_EVENTS (10,000) carrier events posted to POST
//    /hooks/carriers/<provider>/<token>, half in EasyPost's format and half in
//    AfterShip's, each signed as its provider signs, over BENCH_EVENT_SHIPMENTS
//    shipments, BENCH_CONCURRENCY at a time (closed loop): throughput, p50 and
//    p99, then every event counted in tracking_events (none lost, none
//    doubled) and a sample posted again (replays store nothing).
// 2. /shipments (and a status filter and a search) for an account with 10
//    shipments and one with BENCH_SHIPMENTS (100,000), measured in the same
//    window, alternating accounts. Target: the big one within 1.5x (p50, p99).
//
//   BUILD_DIR=build npx react-router build
//   node bench/logistics/run.ts
//   BENCH_EVENTS=500 BENCH_SHIPMENTS=2000 BENCH_SECONDS=3 node bench/logistics/run.ts   (a quick, small run)
import { loadavg } from 'node:os';
import { createClient } from '@supabase/supabase-js';
import { signCarrierBody, SIGNATURE_HEADER, type CarrierProvider } from '../../app/features/shipments/carriers/signatures.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { startAppServer } from '../../tests/e2e/support/app-server.ts';
import { Session } from '../../tests/support/session.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const EVENT_SHIPMENTS = Number(process.env.BENCH_EVENT_SHIPMENTS ?? Math.max(1, Math.ceil(EVENTS / 5)));
const BIG = Number(process.env.BENCH_SHIPMENTS ?? 100_000);
const SMALL = 10;
const TARGET = 1.5;
const postgresUrl = process.env.BENCH_POSTGRES_URL;

const log = (message: string) => console.error(`[bench] ${message}`);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Runs `count` tasks `CONCURRENCY` at a time; each task's latency in ms, and the wall time. */
async function closedLoop(count: number, task: (i: number) => Promise<void>): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

/** Event i: its shipment, provider and a body in that provider's documented format (see tests/worker/carrier-hooks.test.ts). */
function carrierEvent(i: number, tracking: (n: number) => string): { provider: CarrierProvider; body: string } {
  const provider: CarrierProvider = i % 2 === 0 ? 'easypost' : 'aftership';
  const number = tracking(i % EVENT_SHIPMENTS);
  const now = new Date();
  // Each event its own moment and place, so none is the "same event" of another.
  const at = new Date(now.getTime() - 60_000 + (i % 50_000));
  const place = `Hub ${i}`;
  if (provider === 'easypost') {
    return {
      provider,
      body: JSON.stringify({
        id: `evt_bench_${i}`, object: 'Event', mode: 'test', description: 'tracker.updated', created_at: now.toISOString(),
        result: {
          id: `trk_${i}`, object: 'Tracker', tracking_code: number, status: 'in_transit', carrier: 'UPS',
          tracking_details: [{ object: 'TrackingDetail', message: 'Arrived at facility', status: 'in_transit', datetime: at.toISOString(), tracking_location: { city: place, state: null, country: 'DE' } }],
        },
      }),
    };
  }
  return {
    provider,
    body: JSON.stringify({
      event: 'tracking_update', event_id: `bench-${i}`, is_tracking_first_tag: false, ts: Math.floor(now.getTime() / 1000),
      msg: { id: `as-${i}`, tracking_number: number, slug: 'dhl', tag: 'InTransit', subtag: 'InTransit_001', checkpoints: [{ checkpoint_time: at.toISOString(), message: 'In transit', location: place, tag: 'InTransit' }] },
    }),
  };
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const loadAtStart = load();
log(`backend on ${postgresUrl ? 'PostgreSQL' : 'PGlite'}; load average ${loadAtStart}`);
const backend = await startTestBackend({ seed: true, siteUrl: 'http://127.0.0.1', postgresUrl });
// The service role key: the carrier hook reads the hook's secret and records events with it.
const app = await startAppServer({ SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey, SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey });
try {
  const stamp = Date.now().toString(36);
  const accounts = { small: `bench-ship-small-${stamp}@example.test`, big: `bench-ship-big-${stamp}@example.test` };
  const sessions = { small: new Session(app.url, backend.url), big: new Session(app.url, backend.url) };
  await sessions.small.signUp(accounts.small, 'bench-password');
  await sessions.big.signUp(accounts.big, 'bench-password');
  const accountIds: Record<string, string> = {};
  for (const key of ['small', 'big'] as const) {
    const { rows } = await backend.db.query<{ account_id: string }>('select account_id from public.users where email = $1', [accounts[key]]);
    accountIds[key] = rows[0].account_id;
  }

  // ── 1. Carrier webhooks ────────────────────────────────────────────────
  const tracking = (n: number) => `BENCH${stamp.toUpperCase()}${String(n).padStart(7, '0')}`;
  await backend.db.query(
    `insert into public.shipments (account_id, tracking_number, carrier, origin, destination, weight, description, status_at, created_at)
     select $1, $2 || lpad(g::text, 7, '0'), 'ups', 'Hamburg', 'Lyon', 2, 'Bench goods', now() - interval '1 day', now() - interval '1 day'
       from generate_series(0, $3::int - 1) g`,
    [accountIds.small, `BENCH${stamp.toUpperCase()}`, EVENT_SHIPMENTS],
  );
  const user = createClient(backend.url, backend.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const signedIn = await user.auth.signInWithPassword({ email: accounts.small, password: 'bench-password' });
  if (signedIn.error) throw signedIn.error;
  const rotated = await user.rpc('rotate_carrier_hook');
  if (rotated.error) throw rotated.error;
  const { token, secret } = (rotated.data as { token: string; secret: string }[])[0];

  const post = async (i: number): Promise<number> => {
    const { provider, body } = carrierEvent(i, tracking);
    const bytes = new TextEncoder().encode(body);
    const response = await fetch(`${app.url}/hooks/carriers/${provider}/${token}`, {
      method: 'POST',
      body: bytes,
      headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER[provider]]: await signCarrierBody(provider, secret, bytes) },
    });
    await response.text();
    return response.status;
  };
  const refused: number[] = [];
  log(`posting ${EVENTS} carrier events over ${EVENT_SHIPMENTS} shipments, ${CONCURRENCY} at a time`);
  const hooks = await closedLoop(EVENTS, async (i) => {
    const status = await post(i);
    if (status !== 200) refused.push(status);
  });
  const { rows: counted } = await backend.db.query<{ stored: string; distinct_ids: string }>(
    `select count(*) as stored, count(distinct (provider, provider_event_id)) as distinct_ids
       from public.tracking_events e join public.shipments s on s.id = e.shipment_id
      where s.account_id = $1 and e.provider is not null`,
    [accountIds.small],
  );
  const replays = Math.min(100, EVENTS);
  for (let i = 0; i < replays; i++) await post(i);
  const { rows: afterReplay } = await backend.db.query<{ stored: string }>(
    `select count(*) as stored from public.tracking_events e join public.shipments s on s.id = e.shipment_id where s.account_id = $1 and e.provider is not null`,
    [accountIds.small],
  );
  // Logged at once: if a later step fails, the webhook figures are not lost.
  log(`events: ${EVENTS} in ${hooks.seconds.toFixed(1)} s, ${(EVENTS / hooks.seconds).toFixed(1)}/s, p50 ${quantile(hooks.latencies, 0.5).toFixed(1)} ms, p99 ${quantile(hooks.latencies, 0.99).toFixed(1)} ms, refused ${refused.length}, stored ${counted[0].stored}, distinct ${counted[0].distinct_ids}, after replays ${afterReplay[0].stored}; load average ${load()}`);
  // The small account's list is measured below with its 10 shipments: the bench's ones go.
  await backend.db.query(`delete from public.shipments where account_id = $1`, [accountIds.small]);

  // ── 2. /shipments at scale ──────────────────────────────────────────────
  // Seeded in chunks under a time budget (BENCH_SEED_SECONDS, default 900): on a loaded machine the big account
  // gets as many shipments as fit, and the tables below name the number actually seeded.
  const seedStarted = performance.now();
  const seedBudget = Number(process.env.BENCH_SEED_SECONDS ?? 900) * 1000;
  const CHUNK = 5_000;
  const seeded = { small: 0, big: 0 };
  for (const [key, count] of [['small', SMALL], ['big', BIG]] as const) {
    for (let from = 1; from <= count; from += CHUNK) {
      if (key === 'big' && performance.now() - seedStarted > seedBudget) break;
      const to = Math.min(count, from + CHUNK - 1);
      await backend.db.query(
        `insert into public.shipments (account_id, tracking_number, carrier, origin, destination, weight, description, status, status_at,
                                       delivered_at, created_at)
         select $1, $2 || lpad(g::text, 7, '0'), (array['fedex', 'ups', 'dhl', 'usps', 'other'])[1 + g % 5], 'Origin ' || (g % 50),
                'Destination ' || (g % 97), 1 + g % 40, 'Bench shipment ' || g, s.status, now() - g * interval '7 minutes',
                case when s.status = 'Delivered' then now() - g * interval '7 minutes' end, now() - g * interval '7 minutes'
           from generate_series($3::int, $4::int) g,
                lateral (select case when g % 1000 = 0 then 'Exception' else (array['Processing', 'In Transit', 'Delivered'])[1 + g % 3] end as status) s`,
        [accountIds[key], `L${key.toUpperCase()}${stamp.toUpperCase()}`, from, to],
      );
      seeded[key] = to;
      if (key === 'big') log(`seeded ${to} shipments (${((performance.now() - seedStarted) / 1000).toFixed(0)} s)`);
    }
  }
  const BIG_SEEDED = seeded.big;
  log(`seeded ${SMALL} + ${BIG_SEEDED} shipments in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

  const pages = [
    { path: '/shipments', expect: 'Shipments' },
    { path: '/shipments?status=Exception', expect: 'Shipments' },
    { path: '/shipments?q=destination+42', expect: 'Shipments', untargeted: 'a search: 0-1 vs ~1,000 matches' },
  ];
  for (const session of Object.values(sessions)) for (const page of pages) await session.send(page.path).catch(() => session.send(page.path));
  const view = async (session: Session, path: string, expect: string) => {
    const answer = await session.send(path);
    if (answer.status !== 200 || !answer.body.includes(expect)) throw new Error(`GET ${path}: ${answer.status}`);
  };
  const results: string[] = [];
  const verdicts: string[] = [];
  for (const page of pages) {
    log(`measuring ${page.path}`);
    const latencies = { small: [] as number[], big: [] as number[] };
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, client) => {
        for (let i = client; performance.now() < end; i++) {
          const key = i % 2 === 0 ? 'small' : 'big';
          const t = performance.now();
          await view(sessions[key], page.path, page.expect);
          latencies[key].push(performance.now() - t);
        }
      }),
    );
    const small = latencies.small.sort((a, b) => a - b);
    const big = latencies.big.sort((a, b) => a - b);
    results.push(`| ${page.path} | ${SMALL} | ${small.length} | ${quantile(small, 0.5).toFixed(1)} | ${quantile(small, 0.99).toFixed(1)} |`);
    results.push(`| ${page.path} | ${BIG_SEEDED.toLocaleString('en-US')} | ${big.length} | ${quantile(big, 0.5).toFixed(1)} | ${quantile(big, 0.99).toFixed(1)} |`);
    const p50 = quantile(big, 0.5) / quantile(small, 0.5);
    const p99 = quantile(big, 0.99) / quantile(small, 0.99);
    const verdict = page.untargeted ? `no target (${page.untargeted})` : p50 <= TARGET && p99 <= TARGET ? 'met' : '**missed**';
    verdicts.push(`| ${page.path} | ${p50.toFixed(2)}x | ${p99.toFixed(2)}x | ${verdict} |`);
  }

  console.log(`\n${new Date().toISOString().slice(0, 16)} UTC, ${postgresUrl ? 'PostgreSQL' : 'PGlite'}, node ${process.version}, ${CONCURRENCY} concurrent clients; load average (1/5/15 min) ${loadAtStart} at the start, ${load()} at the end\n`);
  console.log('| carrier events | shipments | seconds | events/s | p50 ms | p99 ms | refused | stored | distinct provider ids | stored after 100 replays |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${EVENTS.toLocaleString('en-US')} | ${EVENT_SHIPMENTS.toLocaleString('en-US')} | ${hooks.seconds.toFixed(1)} | ${(EVENTS / hooks.seconds).toFixed(1)} | ${quantile(hooks.latencies, 0.5).toFixed(1)} | ${quantile(hooks.latencies, 0.99).toFixed(1)} | ${refused.length}${refused.length ? ` (${[...new Set(refused)].join(', ')})` : ''} | ${counted[0].stored} | ${counted[0].distinct_ids} | ${afterReplay[0].stored} |`,
  );
  const lostOrDoubled = Number(counted[0].stored) !== EVENTS || Number(afterReplay[0].stored) !== EVENTS;
  console.log(lostOrDoubled ? '\n**Events lost or doubled.**' : '\nNone lost, none doubled.');
  console.log(`\n${SECONDS} s per page, both accounts in the same window\n`);
  console.log('| page | shipments in the account | requests | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  for (const line of results) console.log(line);
  console.log(`\n| page | p50 ${BIG_SEEDED.toLocaleString('en-US')} / ${SMALL} | p99 | target ${TARGET}x |`);
  console.log('|---|---|---|---|');
  for (const line of verdicts) console.log(line);
} finally {
  await app.stop();
  await backend.stop();
}
process.exit(0);
