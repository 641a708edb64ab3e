// Benchmark: how long one tenant's bulk insert holds everyone else on the local
// backend. The demo admin sends back-to-back inserts of N leads (~105 bytes
// each, as in the 8,000-row / 839 KB import of the security review did; RLS and
// the audit trigger run for every row) while another account's admin asks for
// one small page of its leads every 10 ms; that reader's worst and p99 latency
// is the stall. Run at the largest insert the backend accepts
// (MAX_INSERT_ROWS) and at 8,000 rows with the cap lifted, for comparison.
//   npm run bench:stall                 PGlite
//   TEST_POSTGRES_URL=... npm run bench:stall   PGlite and PostgreSQL
import { startTestBackend } from '../../supabase/local/testing.ts';
import { MAX_INSERT_ROWS } from '../../supabase/local/rest/write.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function measure(kind: string, rowsPerInsert: number, postgresUrl?: string) {
  const backend = await startTestBackend({ seed: true, postgresUrl });
  const signIn = async (email: string) => {
    const response = await fetch(`${backend.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'demo1234' }),
    });
    const { access_token } = (await response.json()) as { access_token: string };
    return { apikey: backend.anonKey, Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' };
  };
  const headers = await signIn('demo@opshub.test');
  const otherTenant = await signIn('admin@northwind.test');
  const accountId = ((await (await fetch(`${backend.url}/rest/v1/users?select=account_id&limit=1`, { headers })).json()) as { account_id: string }[])[0].account_id;
  let batch = 0;
  const deadline = Date.now() + SECONDS * 1000;
  let inserted = 0;
  let refused = 0;
  const writer = (async () => {
    while (Date.now() < deadline) {
      batch += 1;
      const body = JSON.stringify(
        Array.from({ length: rowsPerInsert }, (_, i) => ({ account_id: accountId, name: `S${batch}-${i}`, email: `${batch}-${i}@x.t`, company: 'C' })),
      );
      const response = await fetch(`${backend.url}/rest/v1/leads`, { method: 'POST', headers, body });
      await response.arrayBuffer();
      if (response.status === 201) inserted += rowsPerInsert;
      else refused += 1;
    }
  })();
  const latencies: number[] = [];
  const reader = (async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      const response = await fetch(`${backend.url}/rest/v1/leads?select=id,name&order=created_at.desc&limit=5`, { headers: otherTenant });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await Promise.all([writer, reader]);
  await backend.stop();
  latencies.sort((a, b) => a - b);
  return {
    database: kind,
    rowsPerInsert,
    rowsInsertedPerSecond: Math.round(inserted / SECONDS),
    refusedInserts: refused,
    readerRequests: latencies.length,
    readerP50Ms: Number(percentile(latencies, 50).toFixed(1)),
    readerP99Ms: Number(percentile(latencies, 99).toFixed(1)),
    worstStallMs: Number(latencies.at(-1)!.toFixed(1)),
  };
}

const results = [];
for (const [kind, url] of [['PGlite', undefined], ['PostgreSQL', process.env.TEST_POSTGRES_URL]] as const) {
  if (kind === 'PostgreSQL' && !url) continue;
  results.push(await measure(kind, MAX_INSERT_ROWS, url));
  results.push(await measure(kind, 8000, url)); // refused now: shows the cap at work
}
console.table(results);
