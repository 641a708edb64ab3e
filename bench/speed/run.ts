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

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const BUILD_DIR = process.env.BUILD_DIR ?? 'build';

interface Row {
  label: string;
  path: string;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** CPU time of the app server (wrangler and its workerd processes) per request. */
  cpuMs: number;
  /** CPU time of this process per request: the local backend (PGlite) it hosts. */
  benchCpuMs: number;
}

async function measure(label: string, url: string, path: string, expect: number, headers: Record<string, string> = {}, check?: (response: Response) => void): Promise<Row> {
  const probe = await fetch(url + path, { headers, redirect: 'manual' });
  await probe.text();
  if (probe.status !== expect) throw new Error(`${path}: ${probe.status}, expected ${expect}`);
  check?.(probe);
  await load(url + path, headers, { connections: CONNECTIONS, seconds: SECONDS }); // warm-up, not reported (first isolate, JIT, caches)
  const pids = descendantsOf(process.pid);
  const cpuBefore = cpuOf(pids);
  const benchBefore = process.cpuUsage();
  const result = await load(url + path, headers, { connections: CONNECTIONS, seconds: SECONDS });
  const requests = Math.max(1, result.requests.total);
  const cpuMs = (cpuOf(pids) - cpuBefore) / requests;
  const bench = process.cpuUsage(benchBefore);
  const benchCpuMs = (bench.user + bench.system) / 1000 / requests;
  const failures = result.errors + result.timeouts + (expect === 200 ? result.non2xx : 0);
  return { label, path, perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures, cpuMs, benchCpuMs };
}

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

  const rows: Row[] = [];
  rows.push(await measure('a static asset', app, stylesheet, 200));
  rows.push(await measure('`/` from the edge cache (HIT)', app, '/', 200, {}, cacheState('HIT')));
  rows.push(await measure('`/no-such-page` (React Router renders, no backend call)', app, '/no-such-page', 404));
  for (const path of ['/dashboard', '/quotes', '/settings/audit-logs']) rows.push(await measure(`\`${path}\``, app, path, 200, signedIn));

  const { pages } = await measureAllPages(app, stack.backendUrl, stack.serviceRoleKey, BUILD_DIR, ['/auth', '/invite/']);
  const byRow = (path: string) => rows.find((row) => row.path === path)!;
  const bare = byRow('/no-such-page').perSecond;
  const ratio = (value: number, of: number) => `${(value / of).toFixed(2)}x`;

  const load1 = loadavg()[0].toFixed(1);
  console.log(`\n${runHeader()}; ${CONNECTIONS} connections, ${SECONDS} s each (after a warm-up of the same length); load average ${load1} at the end\n`);
  console.log('| request | req/s | p50 ms | p99 ms | errors | CPU ms per request: app server | CPU ms per request: local backend |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const label = row.path === stylesheet ? `a static asset (\`${stylesheet}\`)` : row.label;
    console.log(`| ${label} | ${row.perSecond.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.failures} | ${row.cpuMs.toFixed(2)} | ${row.benchCpuMs.toFixed(2)} |`);
  }
  console.log('\n| target | measured | met |');
  console.log('|---|---|---|');
  const hit = byRow('/').perSecond / byRow(stylesheet).perSecond;
  console.log(`| cache hit ≥ 0.9x the static asset | ${ratio(byRow('/').perSecond, byRow(stylesheet).perSecond)} | ${hit >= 0.9 ? 'yes' : 'no'} |`);
  console.log(`| (CPU per request, static ÷ hit, for reference) | ${ratio(byRow(stylesheet).cpuMs, byRow('/').cpuMs)} | |`);
  for (const path of ['/dashboard', '/quotes', '/settings/audit-logs']) {
    const value = byRow(path).perSecond / bare;
    console.log(`| \`${path}\` ≥ 0.7x the bare render | ${ratio(byRow(path).perSecond, bare)} | ${value >= 0.7 ? 'yes' : 'no'} |`);
  }
  for (const page of pages) {
    const shown = page.path.startsWith('/invite/') ? '/invite/<token>' : page.path;
    const kb = page.js.gzip / 1024;
    console.log(`| \`${shown}\` ≤ 100 KB gzip JavaScript | ${kb.toFixed(1)} KB in ${page.jsFiles} files | ${kb <= 100 ? 'yes' : 'no'} |`);
  }
} finally {
  await stack.stop();
}
process.exit(0);
