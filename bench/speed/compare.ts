// `npm run bench:speed:compare -- <build dir A> <build dir B> [path ...]`: two
// builds of the Worker side by side against one local backend, each path
// measured on A then B, round after round, so both see the same load from
// whatever else runs on the machine. For a change's effect on a shared
// machine, where one run's absolute numbers say little (issue 22).
// Prints req/s and the app server's CPU per request for each, and B ÷ A.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { cpuOf, descendantsOf, load } from './load.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { freePort, startAppServer, type AppServer } from '../../tests/e2e/support/app-server.ts';
import { Session } from '../../tests/support/session.ts';
import { DEMO_ADMIN } from '../../tests/support/accounts.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const [dirA, dirB, ...given] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: compare.ts <build dir A> <build dir B> [path ...]');
const paths = given.length > 0 ? given : ['/no-such-page', '/dashboard', '/quotes'];

/** The process group leader wrangler runs in: its pid is the group id startAppServer kills. */
function serverPids(server: AppServer & { pid?: number }): number[] {
  const port = new URL(server.url).port;
  const line = execFileSync('ps', ['-eo', 'pid=,args=']).toString().split('\n').find((row) => row.includes(`--port ${port}`) && row.includes('wrangler'));
  const pid = Number(line?.trim().split(/\s+/)[0]);
  return Number.isFinite(pid) ? [pid, ...descendantsOf(pid)] : [];
}

const port = await freePort();
const backend = await startTestBackend({ seed: true, siteUrl: `http://127.0.0.1:${port}` });
const vars = { SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey };
process.env.BUILD_DIR = dirA;
const a = await startAppServer(vars, port);
process.env.BUILD_DIR = dirB;
const b = await startAppServer(vars);
try {
  const sessions = new Map<AppServer, Record<string, string>>();
  for (const server of [a, b]) {
    const admin = new Session(server.url, backend.url);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    sessions.set(server, { cookie: admin.cookieHeader });
  }
  const totals = new Map<string, { requests: number; cpu: number; seconds: number }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of paths) {
      for (const [name, server] of [['A', a], ['B', b]] as const) {
        const headers = path === '/' || path.startsWith('/assets/') || path === '/no-such-page' ? {} : sessions.get(server)!;
        if (round === 0) await load(server.url + path, headers, { connections: CONNECTIONS, seconds: SECONDS }); // warm-up
        const pids = serverPids(server);
        const before = cpuOf(pids);
        const result = await load(server.url + path, headers, { connections: CONNECTIONS, seconds: SECONDS });
        const cpu = cpuOf(pids) - before;
        const key = `${path} ${name}`;
        const total = totals.get(key) ?? { requests: 0, cpu: 0, seconds: 0 };
        total.requests += result.requests.total;
        total.cpu += cpu;
        total.seconds += SECONDS;
        totals.set(key, total);
        console.log(`round ${round + 1} ${key}: ${result.requests.average.toFixed(0)} req/s, ${(cpu / Math.max(1, result.requests.total)).toFixed(2)} ms CPU per request, load ${loadavg()[0].toFixed(1)}`);
      }
    }
  }
  console.log(`\nA = ${dirA}, B = ${dirB}; ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections\n`);
  console.log('| path | A req/s | B req/s | B ÷ A | A CPU ms/request | B CPU ms/request | B ÷ A |');
  console.log('|---|---|---|---|---|---|---|');
  for (const path of paths) {
    const ta = totals.get(`${path} A`)!;
    const tb = totals.get(`${path} B`)!;
    const rateA = ta.requests / ta.seconds;
    const rateB = tb.requests / tb.seconds;
    const cpuA = ta.cpu / ta.requests;
    const cpuB = tb.cpu / tb.requests;
    console.log(`| ${path} | ${rateA.toFixed(0)} | ${rateB.toFixed(0)} | ${(rateB / rateA).toFixed(2)} | ${cpuA.toFixed(2)} | ${cpuB.toFixed(2)} | ${(cpuB / cpuA).toFixed(2)} |`);
  }
} finally {
  await a.stop();
  await b.stop();
  await backend.stop();
}
process.exit(0);
