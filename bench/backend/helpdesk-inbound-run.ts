// What the helpdesk's inbound benches share (helpdesk-inbound.ts: SMS through
// the Twilio webhook; helpdesk-inbound-email.ts: JSON mail through POST
// /hooks/email): the settings read from the environment, the local backend and
// (BENCH_HTTP=1) the built Worker under `wrangler dev`, an account to post to,
// the deliveries BENCH_CONCURRENCY at a time with a provider's retries, and the
// printed table.
import { loadavg } from 'node:os';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Backend } from '../../supabase/local/index.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { startAppServer, type AppServer } from '../../tests/e2e/support/app-server.ts';

export const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
export const SENDERS = Number(process.env.BENCH_SENDERS ?? 500);
export const REPLAY = Math.min(Number(process.env.BENCH_REPLAY ?? 200), MESSAGES);
export const HTTP = Boolean(process.env.BENCH_HTTP);
export const SITE = 'https://ops-hub.bench';

export interface InboundBench {
  backend: Backend;
  app: AppServer | undefined;
  service: SupabaseClient;
  accountId: string;
  /** The account admin's auth.users id (a JWT's sub). */
  authUserId: string;
}

/** The backend (PGlite, or BENCH_POSTGRES_URL), the Worker when BENCH_HTTP is set, and a new account (its first user, its admin). */
export async function startInboundBench(run: (bench: InboundBench) => Promise<void>): Promise<void> {
  const backend = await startTestBackend({ seed: true, postgresUrl: process.env.BENCH_POSTGRES_URL });
  let app: AppServer | undefined;
  try {
    if (HTTP) {
      app = await startAppServer({ SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey, SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey });
    }
    const service = createClient(backend.url, backend.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const email = `bench-inbound-${Date.now().toString(36)}@example.test`;
    await backend.db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token, recovery_token,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(), '', '',
               '{"provider": "email", "providers": ["email"]}', '{"first_name": "Bench", "last_name": "Inbound"}', now(), now())`,
      [email],
    );
    const { account_id: accountId, auth_user_id: authUserId } = (await backend.db.query<{ account_id: string; auth_user_id: string }>(
      'select account_id, auth_user_id from public.users where email = $1', [email])).rows[0];
    await run({ backend, app, service, accountId, authUserId });
  } finally {
    await app?.stop();
    await backend.stop();
  }
}

/**
 * Delivers posts 0..count-1, CONCURRENCY at a time. A post answered with an error
 * is sent again, as the provider would retry it (a delivery stored before the
 * error is then found by its id, never stored twice); each such answer is kept
 * in `failures` and reported. `post` returns the milliseconds of the one call.
 */
export function deliveries(post: (i: number) => Promise<number>) {
  const failures: string[] = [];
  const deliver = async (i: number): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await post(i);
      } catch (error) {
        failures.push(String(error instanceof Error ? error.message : error).slice(0, 200));
        if (attempt === 3) throw error;
      }
    }
  };
  const runAll = async (count: number) => {
    const times: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const i = next++;
          times.push(await deliver(i));
        }
      }),
    );
    return { ms: performance.now() - started, times: times.sort((a, b) => a - b) };
  };
  return { runAll, failures };
}

export const load = () => loadavg()[0].toFixed(1);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The run's heading and its table (new deliveries, then the replay), as bench/README.md records them. */
export function printRuns(what: string, bench: InboundBench, loads: string[], rows: { label: string; count: number; ms: number; times: number[] }[], failures: string[], extra = '') {
  console.log(`\n${bench.backend.db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${bench.app ? 'over HTTP through the built Worker (wrangler dev)' : 'the handler in process'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${CONCURRENCY} at a time, ${SENDERS} senders${extra}, load average ${loads.join('–')}\n`);
  console.log(`| ${what} | posts | s | per second | p50 ms | p99 ms |`);
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.label} | ${row.count.toLocaleString('en-US')} | ${(row.ms / 1000).toFixed(1)} | ${(row.count / (row.ms / 1000)).toFixed(0)} | ${pct(row.times, 50).toFixed(1)} | ${pct(row.times, 99).toFixed(1)} |`);
  }
  console.log(`\nposts answered with an error and sent again: ${failures.length}${failures.length ? ` (${[...new Set(failures.map((f) => f.replace(/^message \d+: /, '')))].join('; ')})` : ''}`);
}
