// `npm run bench:speed` (issue 22): the request table of the speed issue in one
// run, with autocannon against the built Worker under `wrangler dev` and the
// local backend with the demo data. Build first (`npm run build`).
//   a static asset · `/` from the edge cache (HIT) · `/no-such-page` (a bare
//   React Router render, no backend call) · three signed-in pages as the demo admin
// then the ratios the issue sets targets for, and the JavaScript of /auth.
import { loadavg } from 'node:os';
import { cpuOf, descendantsOf, load } from './load.ts';
import { measureAllPages } from '../weight/measure.ts';
import { runHeader, startStack } from '../support/stack.ts';
import { Session } from '../../tests/support/session.ts';
import { DEMO_ADMIN } from '../../tests/support/accounts.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BUILD_DIR = process.env.BUILD_DIR ?? 'build';

/** One request kind of the table, measured once per round. */
interface Target {
  label: string;
  path: string;
  expect: number;
  headers?: Record<string, string>;
  check?: (response: Response) => void;
}

/** One round's measurement of a target. */
interface Sample {
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** CPU time of the app server (wrangler and its workerd processes) per request. */
  cpuMs: number;
  /** CPU time of this process per request: the local backend (PGlite) it hosts. */
  benchCpuMs: number;
}

async function probe({ path, expect, headers = {}, check }: Target, url: string): Promise<void> {
  const response = await fetch(url + path, { headers, redirect: 'manual' });
  await response.text();
  if (response.status !== expect) throw new Error(`${path}: ${response.status}, expected ${expect}`);
  check?.(response);
}

async function measure({ path, expect, headers = {} }: Target, url: string): Promise<Sample> {
  const pids = descendantsOf(process.pid);
  const cpuBefore = cpuOf(pids);
  const benchBefore = process.cpuUsage();
  const result = await load(url + path, headers, { connections: CONNECTIONS, seconds: SECONDS });
  const requests = Math.max(1, result.requests.total);
  const cpuMs = (cpuOf(pids) - cpuBefore) / requests;
  const bench = process.cpuUsage(benchBefore);
  const benchCpuMs = (bench.user + bench.system) / 1000 / requests;
  const failures = result.errors + result.timeouts + (expect === 200 ? result.non2xx : 0);
  return { perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures, cpuMs, benchCpuMs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const stack = await startStack();
try {
  const app = stack.appUrl;
  const home = await (await fetch(`${app}/`)).text();
  const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(home)?.[1];
  if (!stylesheet) throw new Error('no stylesheet on /');
  const admin = new Session(app, stack.backendUrl);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const signedIn = { cookie: admin.cookieHeader };
  const cacheState = (state: string) => (response: Response) => {
    const got = response.headers.get('x-edge-cache');
    if (got !== state) throw new Error(`expected X-Edge-Cache ${state}, got ${got}`);
  };
  await fetch(`${app}/`); // fills the cache if the first fetch above did not

  const targets: Target[] = [
    { label: `a static asset (\`${stylesheet}\`)`, path: stylesheet, expect: 200 },
    { label: '`/` from the edge cache (HIT)', path: '/', expect: 200, check: cacheState('HIT') },
    { label: '`/no-such-page` (React Router renders, no backend call)', path: '/no-such-page', expect: 404 },
    ...['/dashboard', '/quotes', '/settings/audit-logs'].map((path) => ({ label: `\`${path}\``, path, expect: 200, headers: signedIn })),
  ];
  // A warm-up of each (first isolate, JIT, caches), not reported; then the
  // rounds, every target once per round, so that a change in the machine's
  // load while the bench runs falls on all of them alike. Each ratio is taken
  // within a round, and the median over the rounds is reported.
  for (const target of targets) {
    await probe(target, app);
    await load(app + target.path, target.headers ?? {}, { connections: CONNECTIONS, seconds: SECONDS });
  }
  const samples = new Map<Target, Sample[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) samples.get(target)!.push(await measure(target, app));
  }

  const { pages } = await measureAllPages(app, stack.backendUrl, stack.serviceRoleKey, BUILD_DIR, ['/auth', '/invite/']);
  const of = (path: string) => samples.get(targets.find((target) => target.path === path)!)!;
  const ratios = (path: string, base: string) => of(path).map((sample, round) => sample.perSecond / of(base)[round].perSecond);
  const shown = (values: number[]) => `${median(values).toFixed(2)}x (${values.map((value) => value.toFixed(2)).join(' · ')})`;

  const load1 = loadavg()[0].toFixed(1);
  console.log(
    `\n${runHeader()}; ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per request (after a warm-up of the same length); load average ${load1} at the end\n`,
  );
  console.log('Medians over the rounds:\n');
  console.log('| request | req/s | p50 ms | p99 ms | errors | CPU ms per request: app server | CPU ms per request: local backend |');
  console.log('|---|---|---|---|---|---|---|');
  for (const target of targets) {
    const rows = samples.get(target)!;
    const m = (pick: (sample: Sample) => number) => median(rows.map(pick));
    const errors = rows.reduce((sum, sample) => sum + sample.failures, 0);
    console.log(
      `| ${target.label} | ${m((s) => s.perSecond).toFixed(0)} | ${m((s) => s.p50)} | ${m((s) => s.p99)} | ${errors} | ${m((s) => s.cpuMs).toFixed(2)} | ${m((s) => s.benchCpuMs).toFixed(2)} |`,
    );
  }
  console.log('\n| target | measured: median (each round) | met |');
  console.log('|---|---|---|');
  const hit = ratios('/', stylesheet);
  console.log(`| cache hit ≥ 0.9x the static asset | ${shown(hit)} | ${median(hit) >= 0.9 ? 'yes' : 'no'} |`);
  const cpu = of(stylesheet).map((sample, round) => sample.cpuMs / of('/')[round].cpuMs);
  console.log(`| (CPU per request, static ÷ hit, for reference) | ${shown(cpu)} | |`);
  for (const path of ['/dashboard', '/quotes', '/settings/audit-logs']) {
    const values = ratios(path, '/no-such-page');
    console.log(`| \`${path}\` ≥ 0.7x the bare render | ${shown(values)} | ${median(values) >= 0.7 ? 'yes' : 'no'} |`);
  }
  for (const page of pages) {
    const name = page.path.startsWith('/invite/') ? '/invite/<token>' : page.path;
    const kb = page.js.gzip / 1024;
    console.log(`| \`${name}\` ≤ 100 KB gzip JavaScript | ${kb.toFixed(1)} KB in ${page.jsFiles} files | ${kb <= 100 ? 'yes' : 'no'} |`);
  }
} finally {
  await stack.stop();
}
process.exit(0);
