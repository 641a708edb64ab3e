// `npm run bench:analytics:worker` (issue 40): the two analytics measures that
// need the built Worker under `wrangler dev` (workerd) and the local backend.
//
// 1. Export Report, direct download of exactly 10,000 rows (the leads report,
//    last 30 days, summary and charts on) as CSV, Excel and PDF: each request
//    timed from send to the last byte (BENCH_EXPORT_RUNS runs after one
//    warm-up, p50 and max), and the workerd process's resident memory sampled
//    every 50 ms during each request (/proc/<pid>/status of the workerd child
//    that wrangler dev starts, found by walking the process tree from the app
//    server's pid): the peak above the idle RSS measured just before, and
//    VmHWM (the process's lifetime peak) at the end.
// 2. /analytics for an account with 100,000 invoices and 100,000 leads
//    (spread over three years) and a small account (10 of each), alternating
//    in one window as bench/business/compliance.ts does: p50, p99 and the
//    ratio against the 1.5x target, for last 30 days and last year.
//
//   BUILD_DIR=build-anbench npx react-router build
//   BUILD_DIR=build-anbench BENCH_POSTGRES_URL=postgres://ops:ops@127.0.0.1:5432/postgres node_modules/.bin/node bench/analytics/export.ts
//   BENCH_SECONDS=10 BENCH_CONCURRENCY=4 BENCH_ROWS=100000 BENCH_EXPORT_RUNS=5 BENCH_FORMATS=csv,excel,pdf ...
//   BENCH_EXPORT_ROWS=2000 BENCH_FORMATS=pdf BENCH_ROWS=10 BENCH_PAGES=0 ...   one format at another size, no page bench
// Without BENCH_POSTGRES_URL it runs on PGlite (seeding 200,000 rows takes far longer there).
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { startAppServer } from '../../tests/e2e/support/app-server.ts';
import { Session } from '../../tests/support/session.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const BIG = Number(process.env.BENCH_ROWS ?? 100_000);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 10_000);
// BENCH_PAGES=0 skips the /analytics part (with BENCH_ROWS=10, a quick export-only run).
const PAGES = process.env.BENCH_PAGES !== '0';
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 5);
const SMALL = 10;
const TARGET = 1.5;

const log = (message: string) => console.error(`[bench] ${message}`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** Every descendant pid of `root` (from /proc/<pid>/stat's ppid). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid !== pid) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
  return match ? Number(match[1]) : NaN;
}

function workerdPid(appPid: number): number {
  const pids = descendants(appPid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd';
    } catch {
      return false;
    }
  });
  if (pids.length === 0) throw new Error('no workerd process under the app server');
  // wrangler may keep more than one: the one using the most memory serves the app.
  return pids.sort((a, b) => statusKb(b, 'VmRSS') - statusKb(a, 'VmRSS'))[0];
}

/** One page view as a browser sees it: status 200 and the whole body read. */
async function view(session: Session, path: string, expect: string): Promise<void> {
  const answer = await session.send(path);
  if (answer.status !== 200 || !answer.body.includes(expect)) throw new Error(`GET ${path}: ${answer.status}, '${expect}' missing`);
}

interface Sample {
  latencies: number[];
  seconds: number;
}

/** Both accounts in one window: each client alternates small, big, small, ... */
async function measurePair(small: () => Promise<void>, big: () => Promise<void>): Promise<{ small: Sample; big: Sample }> {
  for (let i = 0; i < 5; i++) {
    await small(); // warm-up
    await big();
  }
  const latencies = { small: [] as number[], big: [] as number[] };
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, client) => {
      for (let i = client; performance.now() < end; i++) {
        const key = i % 2 === 0 ? 'small' : 'big';
        const t = performance.now();
        await (key === 'small' ? small() : big());
        latencies[key].push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { small: { latencies: latencies.small, seconds }, big: { latencies: latencies.big, seconds } };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function summarise(samples: Sample[]) {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  return { requests: latencies.length, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

const engine = process.env.BENCH_POSTGRES_URL ? 'PostgreSQL 15' : 'PGlite';
const backend = await startTestBackend({ seed: true, siteUrl: 'http://127.0.0.1', postgresUrl: process.env.BENCH_POSTGRES_URL || undefined });
const app = await startAppServer({ SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey });
try {
  const { db } = backend;
  const stamp = Date.now().toString(36);
  const emails = { small: `bench-as-${stamp}@example.test`, big: `bench-ab-${stamp}@example.test`, export: `bench-ax-${stamp}@example.test` };
  const sessions = { small: new Session(app.url, backend.url), big: new Session(app.url, backend.url), export: new Session(app.url, backend.url) };
  for (const key of ['small', 'big', 'export'] as const) await sessions[key].signUp(emails[key], 'bench-password');
  const accountOf = async (email: string) =>
    (await db.query<{ account_id: string }>('select account_id from public.users where email = $1', [email])).rows[0].account_id;
  const accounts = { small: await accountOf(emails.small), big: await accountOf(emails.big), export: await accountOf(emails.export) };

  const seedStarted = performance.now();
  // Invoices without their triggers (as bench/analytics/figures.ts does), then the invoice rollups rebuilt from
  // the rows as the triggers keep them; leads through their triggers (their day and month rollups kept as they go).
  for (const [key, count] of [['small', SMALL], ['big', BIG]] as const) {
    await db.query(`set session_replication_role = replica`);
    await db.query(
      `insert into public.invoices (account_id, client_name, client_email, currency, total, amount_paid, due_date, status, created_at)
       select $1, 'Client ' || g, 'c' || g || '@bench.test', (array['USD', 'EUR', 'GBP'])[1 + g % 3], 10000 + g, 0,
              (now() - (g % 1095) * interval '1 day')::date + 30, (array['sent', 'paid', 'overdue', 'draft'])[1 + g % 4],
              now() - (g % 1095) * interval '1 day'
         from generate_series(1, $2::int) g`,
      [accounts[key], count],
    );
    await db.query(`reset session_replication_role`);
    await db.query(`delete from private.invoice_totals where account_id = $1`, [accounts[key]]);
    await db.query(
      `insert into private.invoice_totals (account_id, currency, status, invoice_count, total_sum, paid_sum)
       select account_id, currency, status, count(*), sum(total), sum(amount_paid) from public.invoices where account_id = $1 group by 1, 2, 3`,
      [accounts[key]],
    );
    await db.query(`delete from private.invoice_stats where account_id = $1`, [accounts[key]]);
    await db.query(
      `insert into private.invoice_stats (account_id, currency, status, day, invoice_count, total_sum, paid_sum)
       select account_id, currency, status, (created_at at time zone 'UTC')::date, count(*), sum(total), sum(amount_paid)
         from public.invoices where account_id = $1 group by 1, 2, 3, 4`,
      [accounts[key]],
    );
    await db.query(`select private.rebuild_analytics_money_rollups($1)`, [accounts[key]]);
    await db.query(
      `insert into public.leads (account_id, name, email, company, source, status, created_at)
       select $1, 'Lead ' || g, 'l' || g || '@bench.test', 'Co', (array['website', 'referral', 'email'])[1 + g % 3], 'new',
              now() - (g % 1095) * interval '1 day'
         from generate_series(1, $2::int) g`,
      [accounts[key], count],
    );
  }
  // The export account: exactly 10,000 leads inside the last 30 days (spread over 28 days), through their triggers.
  await db.query(
    `insert into public.leads (account_id, name, email, company, phone_whatsapp, source, status, notes, created_at)
     select $1, 'Lead ' || g, 'l' || g || '@export.test', 'Company ' || (g % 500), '+1 555 01' || lpad((g % 100)::text, 2, '0'),
            (array['website', 'referral', 'email'])[1 + g % 3], 'new', 'Met at the fair, wants a quote for ' || g || ' units',
            now() - interval '1 hour' - (g % 28) * interval '1 day' - (g % 3600) * interval '1 second'
       from generate_series(1, $2::int) g`,
    [accounts.export, EXPORT_ROWS],
  );
  for (const table of ['public.invoices', 'public.leads', 'private.lead_day_stats', 'private.lead_month_stats', 'private.invoice_day_stats', 'private.invoice_month_stats', 'private.invoice_totals']) {
    await db.query(`vacuum analyze ${table}`);
  }
  log(`seeded ${BIG} invoices + ${BIG} leads, ${SMALL} + ${SMALL}, and ${EXPORT_ROWS} leads in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

  // ---- 1. Export of 10,000 rows ----
  const workerd = workerdPid(app.pid);
  // BENCH_FORMATS=pdf,excel,csv measures them in another order (each format's memory can stay held after it).
  const formats = (process.env.BENCH_FORMATS ?? 'csv,excel,pdf').split(',');
  const exportPath = (format: string) => `/analytics/export?report_type=leads&format=${format}&date_range=last_30_days&include_charts=on&include_summary=on`;
  const exportOnce = async (format: string) => {
    const started = performance.now();
    const response = await fetch(`${app.url}${exportPath(format)}`, { headers: { cookie: sessions.export.cookieHeader }, redirect: 'manual' });
    const bytes = (await response.arrayBuffer()).byteLength;
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`export ${format}: ${response.status}`);
    return { ms, bytes };
  };
  // Warm up the Worker (first render, modules) before the idle reading.
  await view(sessions.export, '/analytics', '</html>');
  const exportLoad = load();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const firstIdleKb = statusKb(workerd, 'VmRSS');
  const exportResults: { format: string; ms: number[]; bytes: number; idleKb: number; warmPeakKb: number; warmKb: number; peakKb: number }[] = [];
  for (const format of formats) {
    // The RSS just before this format's first request (the previous format's pages may still be held), sampled
    // every 50 ms through the warm-up (the first request also loads the format's code, e.g. pdf-lib and the fonts)
    // and, separately, through the timed runs.
    const idleKb = statusKb(workerd, 'VmRSS');
    let peakKb = idleKb;
    const timer = setInterval(() => (peakKb = Math.max(peakKb, statusKb(workerd, 'VmRSS'))), 50);
    await exportOnce(format); // warm-up
    const warmPeakKb = Math.max(peakKb, statusKb(workerd, 'VmRSS'));
    const warmKb = statusKb(workerd, 'VmRSS');
    peakKb = warmKb;
    const ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < EXPORT_RUNS; i++) {
      const run = await exportOnce(format);
      ms.push(run.ms);
      bytes = run.bytes;
    }
    clearInterval(timer);
    peakKb = Math.max(peakKb, statusKb(workerd, 'VmRSS'), warmPeakKb);
    exportResults.push({ format, ms, bytes, idleKb, warmPeakKb, warmKb, peakKb });
  }
  const csv = await (await fetch(`${app.url}${exportPath('csv')}`, { headers: { cookie: sessions.export.cookieHeader } })).text();
  const csvLines = csv.split('\n').filter((line) => line.startsWith('"Lead ') || line.startsWith('Lead ')).length;
  const hwmKb = statusKb(workerd, 'VmHWM');

  // ---- 2. /analytics, big and small account alternating ----
  const pages = [
    { path: '/analytics?range=last_30_days', expect: '</html>' },
    { path: '/analytics?range=last_year', expect: '</html>' },
  ];
  if (PAGES) for (const key of ['small', 'big'] as const) for (const p of pages) await view(sessions[key], p.path, p.expect);
  const pageLoad = load();
  const results: Record<string, Sample[]> = {};
  for (let round = 0; round < (PAGES ? 2 : 0); round++) {
    for (const page of pages) {
      log(`round ${round + 1}: ${page.path}`);
      const pair = await measurePair(() => view(sessions.small, page.path, page.expect), () => view(sessions.big, page.path, page.expect));
      (results[`${page.path} small`] ??= []).push(pair.small);
      (results[`${page.path} big`] ??= []).push(pair.big);
    }
  }
  const endLoad = load();

  const when = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  console.log(`\n${engine}, ${when}, node ${process.version}, workerd pid ${workerd}\n`);
  console.log(`Export of ${EXPORT_ROWS.toLocaleString('en-US')} leads (last 30 days, summary and charts; ${csvLines.toLocaleString('en-US')} lead rows in the CSV), ${EXPORT_RUNS} runs each after a warm-up, load average at start ${exportLoad}\n`);
  console.log(`workerd RSS before the first export: ${(firstIdleKb / 1024).toFixed(1)} MB\n`);
  console.log('| format | bytes | p50 ms | max ms | workerd RSS before MB | peak in the first request MB | RSS after it MB | peak over all runs MB | peak above before MB | peak above the first idle MB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of exportResults) {
    const sorted = [...r.ms].sort((a, b) => a - b);
    console.log(`| ${r.format} | ${r.bytes.toLocaleString('en-US')} | ${quantile(sorted, 0.5).toFixed(0)} | ${sorted.at(-1)!.toFixed(0)} | ${(r.idleKb / 1024).toFixed(1)} | ${(r.warmPeakKb / 1024).toFixed(1)} | ${(r.warmKb / 1024).toFixed(1)} | ${(r.peakKb / 1024).toFixed(1)} | ${((r.peakKb - r.idleKb) / 1024).toFixed(1)} | ${((r.peakKb - firstIdleKb) / 1024).toFixed(1)} |`);
  }
  console.log(`\nworkerd VmHWM (lifetime peak) after the exports: ${(hwmKb / 1024).toFixed(1)} MB\n`);
  if (PAGES) console.log(`/analytics, ${SECONDS} s x 2 rounds per page, ${CONCURRENCY} concurrent clients alternating the accounts, load average ${pageLoad} at start, ${endLoad} at end\n`);
  if (PAGES) console.log(`| page | p50 ms ${SMALL} | p50 ms ${BIG.toLocaleString('en-US')} | p99 ms ${SMALL} | p99 ms ${BIG.toLocaleString('en-US')} | p50 ratio | p99 ratio | views (small / big) | target ${TARGET}x |`);
  if (PAGES) console.log('|---|---|---|---|---|---|---|---|---|');
  for (const page of PAGES ? pages : []) {
    const small = summarise(results[`${page.path} small`]);
    const big = summarise(results[`${page.path} big`]);
    const p50 = big.p50 / small.p50;
    const p99 = big.p99 / small.p99;
    console.log(`| ${page.path} | ${small.p50.toFixed(1)} | ${big.p50.toFixed(1)} | ${small.p99.toFixed(1)} | ${big.p99.toFixed(1)} | ${p50.toFixed(2)}x | ${p99.toFixed(2)}x | ${small.requests} / ${big.requests} | ${p50 <= TARGET && p99 <= TARGET ? 'met' : '**missed**'} |`);
  }
} finally {
  await app.stop();
  await backend.stop();
}
process.exit(0);
