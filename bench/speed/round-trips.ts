// Backend round trips per page (issue 33): the built Worker reaches the local
// backend (demo data) through the test proxy (tests/support/backend-proxy.ts),
// which holds each request of a "round-trips …" user agent 50 ms, as a backend
// in another region would, and reports when each ran. For every signed-in page
// (as the demo admin; the portal as the demo client): the backend requests it
// made, how many of them it waited on one after another, and its median time.
// `npm run build && npm run bench:round-trips` (also the last part of bench:speed).
import { startTestBackend } from '../../supabase/local/testing.ts';
import { freePort, startAppServer } from '../../tests/e2e/support/app-server.ts';
import { BackendProxy } from '../../tests/support/backend-proxy.ts';
import { DELAYED_CLIENT, DELAY_MS, sequentialRoundTrips } from '../../tests/support/round-trips.ts';
import { Session } from '../../tests/support/session.ts';
import { DEMO_ADMIN, DEMO_CLIENT } from '../../tests/support/accounts.ts';
import { runHeader } from '../support/stack.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const STAFF_PAGES = [
  '/dashboard', '/leads', '/clients', '/quotes', '/invoices', '/bills', '/documents',
  '/messages', '/shipments', '/rfp', '/compliance', '/automations', '/analytics', '/profile',
  '/settings/website', '/settings/modules', '/settings/templates', '/settings/integrations',
  '/settings/users', '/settings/account', '/settings/audit-logs',
];
const CLIENT_PAGES = ['/portal', '/portal/invoices', '/portal/documents'];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const port = await freePort();
const backend = await startTestBackend({ seed: true, siteUrl: `http://127.0.0.1:${port}` });
const proxy = new BackendProxy(backend.url);
await proxy.up();
const app = await startAppServer({ SUPABASE_URL: proxy.url, SUPABASE_ANON_KEY: backend.anonKey }, port);
try {
  const service = { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` };
  const firstId = async (table: string, filter = '') => {
    const response = await fetch(`${backend.url}/rest/v1/${table}?select=id&limit=1${filter}`, { headers: service });
    return ((await response.json()) as { id: string }[])[0]?.id;
  };
  const records: string[] = [];
  for (const [prefix, table, filter] of [
    ['/leads/', 'leads', ''], ['/clients/', 'contacts', ''], ['/quotes/', 'quotes', ''], ['/invoices/', 'invoices', ''],
    ['/bills/', 'bills', ''], ['/documents/', 'documents', ''],
  ] as const) {
    const id = await firstId(table, filter);
    if (id) records.push(`${prefix}${id}`);
  }
  const draftQuote = await firstId('quotes', '&status=eq.draft');
  const draftInvoice = await firstId('invoices', '&status=eq.draft');
  if (draftQuote) records.push(`/quotes/${draftQuote}/edit`);
  if (draftInvoice) records.push(`/invoices/${draftInvoice}/edit`);

  const rows: string[] = [];
  const measure = async (who: Session, path: string) => {
    const times: number[] = [];
    let requests: string[] = [];
    let roundTrips = 0;
    for (let run = 0; run < RUNS; run++) {
      const userAgent = `${DELAYED_CLIENT}bench ${crypto.randomUUID()}`;
      const started = performance.now();
      const response = await fetch(`${app.url}${path}`, { headers: { cookie: who.cookieHeader, 'user-agent': userAgent }, redirect: 'manual' });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      const timed = proxy.timedRequestsOf(userAgent);
      requests = timed.map((request) => request.request.split('?')[0]);
      roundTrips = sequentialRoundTrips(timed);
    }
    const shown = path.replace(/[0-9a-f-]{36}/, ':id');
    rows.push(`| ${shown} | ${requests.length} | ${roundTrips} | ${median(times).toFixed(0)} | ${requests.join(', ')} |`);
  };
  const admin = new Session(app.url, backend.url);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await measure(admin, '/dashboard'); // the isolate's first key fetch, not counted
  rows.length = 0;
  for (const path of [...STAFF_PAGES, ...records]) await measure(admin, path);
  const client = new Session(app.url, backend.url);
  await client.signIn(DEMO_CLIENT.email, DEMO_CLIENT.password);
  for (const path of CLIENT_PAGES) await measure(client, path);

  console.log(`\n${runHeader()}; ${DELAY_MS} ms added to every backend request; median of ${RUNS} views\n`);
  console.log('| page | backend requests | sequential round trips | median ms | requests |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await app.stop();
  await proxy.stop();
  await backend.stop();
}
