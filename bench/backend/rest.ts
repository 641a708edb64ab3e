// Benchmark: a `select ... eq ... limit 20` through /rest/v1 (HTTP, JWT,
// transaction, role switch, JSON built by Postgres) against the same SQL run
// directly on the same Db, at concurrency 1 and 16; plus how long a fresh
// test database takes (startTestBackend).
//   npm run bench:backend                 PGlite
//   TEST_POSTGRES_URL=... npm run bench:backend   PGlite and PostgreSQL
//   BENCH_PIN=0 ...                       without keeping the load generator on a core of its own
// Each pair is measured twice, REST and direct in turn, and the second round
// reported: the first warms both paths (V8's optimising tiers, Postgres's caches).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { startTestBackend } from '../../supabase/local/testing.ts';
import type { Backend } from '../../supabase/local/index.ts';
import { closedLoop, type LoadResult } from '../support/closed-loop.ts';
import { type CpuSplit, splitCpus } from '../support/cpu-split.ts';

const fixtures = new URL('../../tests/backend/fixtures/', import.meta.url).pathname;
const SCHEMA = { migrationsDir: `${fixtures}migrations`, seedFile: `${fixtures}seed.sql` };
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

async function addRows(backend: Backend) {
  // 20,000 books over 200 authors, so the filter and limit do real work.
  await backend.db.exec(`
    insert into public.authors (id, name) select 1000 + g, 'Bench author ' || g from generate_series(1, 200) g;
    insert into public.books (author_id, title, pages, price, genres)
      select 1000 + (g % 200) + 1, 'Bench book ' || g, 100 + g % 400, (g % 50) + 0.99, '{bench}' from generate_series(1, 20000) g;
    analyze public.books;
  `);
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** The PostgreSQL server's processes, when it runs on this machine (the postmaster and its children). */
async function serverProcesses(backend: Backend, postgresUrl?: string): Promise<number[]> {
  if (!postgresUrl || !LOCAL_HOSTS.has(new URL(postgresUrl).hostname)) return [];
  try {
    const { rows } = await backend.db.query<{ pid: number }>('select pg_backend_pid() as pid');
    const postmaster = Number(readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
    const { stdout } = await promisify(execFile)('pgrep', ['-P', String(postmaster)]);
    return [postmaster, ...stdout.split('\n').filter(Boolean).map(Number)];
  } catch {
    return [];
  }
}

async function benchDatabase(kind: string, postgresUrl?: string) {
  const backend = await startTestBackend({ ...SCHEMA, postgresUrl });
  await addRows(backend);
  const url = `${backend.url}/rest/v1/books?select=id,title,pages,price&author_id=eq.1042&limit=20`;
  const split: CpuSplit = splitCpus(await serverProcesses(backend, postgresUrl));
  // The HTTP client runs in a process of its own (bench/backend/rest-client.ts).
  const viaRest = async (concurrency: number): Promise<LoadResult> => {
    const client = new URL('./rest-client.ts', import.meta.url).pathname;
    const [command, args] = split.loadGenerator(process.execPath, [client, url, backend.anonKey, String(concurrency), String(SECONDS), '20']);
    const { stdout } = await promisify(execFile)(command, args);
    return JSON.parse(stdout) as LoadResult;
  };
  const direct = async () => {
    const { rows } = await backend.db.query('select id, title, pages, price from public.books where author_id = $1 limit 20', [1042]);
    if (rows.length !== 20) throw new Error('unexpected row count');
  };
  const lines: string[] = [];
  try {
    for (const concurrency of [1, 16]) {
      let rest!: LoadResult;
      let sql!: LoadResult;
      for (let round = 0; round < 2; round++) {
        rest = await viaRest(concurrency);
        sql = await closedLoop(concurrency, SECONDS, direct);
      }
      const row = (label: string, r: LoadResult) =>
        `| ${kind} | ${label} | ${concurrency} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`;
      lines.push(row('/rest/v1 (HTTP keep-alive, client in its own process)', rest), row('same SQL on the Db', sql));
      lines.push(`| ${kind} | **ratio REST / direct** | ${concurrency} | **${((rest.perSecond / sql.perSecond) * 100).toFixed(0)}%** | | |`);
    }
  } finally {
    split.restore();
  }
  lines.push(`| ${kind} | ${split.description} | | | | |`);
  await backend.stop();

  // Fresh test databases: the snapshot/template exists by now, so this is the per-test cost.
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const fresh = await startTestBackend({ ...SCHEMA, postgresUrl });
    times.push(performance.now() - t);
    await fresh.stop();
  }
  times.sort((a, b) => a - b);
  return { lines, fresh: `| ${kind} | ${times[2].toFixed(0)} ms | ${times[0].toFixed(0)} ms | ${times[4].toFixed(0)} ms |` };
}

const databases: [string, string | undefined][] = [['PGlite', undefined]];
if (process.env.TEST_POSTGRES_URL) databases.push(['PostgreSQL', process.env.TEST_POSTGRES_URL]);

const results = [];
for (const [kind, url] of databases) results.push(await benchDatabase(kind, url));

console.log(`\n${SECONDS} s per measurement, ${new Date().toISOString().slice(0, 10)}, node ${process.version}\n`);
console.log('| database | path | concurrency | requests/s | p50 ms | p99 ms |');
console.log('|---|---|---|---|---|---|');
for (const r of results) for (const line of r.lines) console.log(line);
console.log('\n| database | fresh test database (median of 5) | min | max |');
console.log('|---|---|---|---|');
for (const r of results) console.log(r.fresh);
process.exit(0);
