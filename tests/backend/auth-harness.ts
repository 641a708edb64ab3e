// Harness for the GoTrue layer over real HTTP: a backend from
// startTestBackend() on a fixture schema (bootstrap + auth-fixtures/), and, for
// tests that need other settings (confirmation on, short token lifetimes), more
// servers from the same server core whose auth layer shares that database.
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { handleAuth } from '../../supabase/local/auth/index.ts';
import type { AuthSettings } from '../../supabase/local/auth/settings.ts';
import type { BackendContext } from '../../supabase/local/context.ts';
import type { Db } from '../../supabase/local/db.ts';
import type { Backend } from '../../supabase/local/index.ts';
import { createOutbox } from '../../supabase/local/outbox.ts';
import { createBackendServer } from '../../supabase/local/server.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';

const FIXTURE_MIGRATIONS = fileURLToPath(new URL('./auth-fixtures', import.meta.url));

export const SITE_URL = 'http://127.0.0.1:5173';

export type ContextOverrides = Partial<Pick<BackendContext, 'confirmEmail' | 'jwtExpiry' | 'siteUrl'>> & {
  authSettings?: Partial<AuthSettings>;
};

export interface AuthHarness {
  db: Db;
  /** The context of the main backend (startTestBackend). */
  base: BackendContext;
  /** A server of its own over the same database, with some settings changed and its own outbox. */
  context(overrides?: ContextOverrides): Promise<BackendContext>;
  /** supabase-js over HTTP to the given backend, with the anon key unless told otherwise. */
  client(ctx?: BackendContext, options?: { key?: string; flowType?: 'implicit' | 'pkce' }): SupabaseClient;
  admin(ctx?: BackendContext): SupabaseClient;
  /** A raw request to /auth/v1<path>, with the anon apikey unless headers say otherwise. */
  call(path: string, init?: RequestInit, ctx?: BackendContext): Promise<Response>;
  /** What a browser does with a link from a mail: a plain GET, redirects not followed. */
  openLink(link: string): Promise<Response>;
  uniqueEmail(label: string): string;
  close(): Promise<void>;
}

const notHere = async () =>
  new Response(JSON.stringify({ message: 'no Route matched with those values' }), { status: 404 });

/** The server core with only the auth layer behind it, answering with `ctx`. */
async function startAuthServer(ctx: BackendContext) {
  const server = createBackendServer({
    routes: { auth: (request) => handleAuth(request, ctx), rest: notHere, storage: notHere, functions: notHere, outbox: ctx.outbox },
    baseUrl: () => ctx.url,
    log: false,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ctx.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export async function openAuthHarness(postgresUrl?: string): Promise<AuthHarness> {
  const backend: Backend = await startTestBackend({
    migrationsDir: FIXTURE_MIGRATIONS,
    seed: false,
    siteUrl: SITE_URL,
    postgresUrl,
  });
  const base = backend.ctx;
  const stops: (() => Promise<void>)[] = [];
  const client: AuthHarness['client'] = (ctx = base, options = {}) =>
    createClient(ctx.url, options.key ?? ctx.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: options.flowType },
    });
  return {
    db: backend.db,
    base,
    async context(overrides = {}) {
      const ctx = { ...base, outbox: createOutbox({ quiet: true }), ...overrides };
      stops.push(await startAuthServer(ctx));
      return ctx;
    },
    client,
    admin: (ctx = base) => client(ctx, { key: ctx.serviceRoleKey }),
    call: (path, init = {}, ctx = base) => {
      const headers = new Headers(init.headers);
      if (!headers.has('apikey')) headers.set('apikey', ctx.anonKey);
      return fetch(`${ctx.url}/auth/v1${path}`, { ...init, headers });
    },
    openLink: (link) => fetch(link, { redirect: 'manual' }),
    uniqueEmail: (label) => `${label}-${randomUUID().slice(0, 8)}@example.com`,
    async close() {
      await Promise.all(stops.map((stop) => stop()));
      await backend.stop();
    },
  };
}

/** The claims of a JWT, unverified (the tests check what the server put in). */
export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}
