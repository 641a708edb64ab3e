// In-process harness for the GoTrue layer: one database per test file, any
// number of backend contexts over it (confirmation on/off, short token
// lifetimes), and real supabase-js clients whose fetch calls handleAuth.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { BackendContext, MailMessage, Outbox } from '../../supabase/local/context.ts';
import { type Db, openPglite, openPostgres } from '../../supabase/local/db.ts';
import { DEFAULT_JWT_SECRET, makeApiKeys } from '../../supabase/local/keys.ts';
import { handleAuth } from '../../supabase/local/auth/index.ts';

const BOOTSTRAP = readFileSync(new URL('../../supabase/local/sql/bootstrap.sql', import.meta.url), 'utf8');

// Stands in for the app's migrations: a trigger that copies sign-up metadata
// into a public table (and refuses one name), and one that mirrors sign-ins.
const FIXTURE = `
create table if not exists public.auth_test_profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  first_name text,
  last_sign_in_at timestamptz
);
create or replace function public.auth_test_on_user_created() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.raw_user_meta_data ->> 'first_name' = 'Refused' then
    raise exception 'sign-ups named Refused are not allowed';
  end if;
  insert into public.auth_test_profiles (user_id, first_name) values (new.id, new.raw_user_meta_data ->> 'first_name');
  return new;
end $$;
create or replace function public.auth_test_on_sign_in() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.auth_test_profiles set last_sign_in_at = new.last_sign_in_at where user_id = new.id;
  return new;
end $$;
drop trigger if exists auth_test_on_user_created on auth.users;
create trigger auth_test_on_user_created after insert on auth.users
  for each row execute function public.auth_test_on_user_created();
drop trigger if exists auth_test_on_sign_in on auth.users;
create trigger auth_test_on_sign_in after update of last_sign_in_at on auth.users
  for each row execute function public.auth_test_on_sign_in();
`;

export const BACKEND_URL = 'http://127.0.0.1:54321';
export const SITE_URL = 'http://127.0.0.1:5173';

class MemoryOutbox implements Outbox {
  private messages: MailMessage[] = [];
  async send(message: MailMessage) {
    this.messages.push(message);
  }
  list() {
    return [...this.messages];
  }
  clear() {
    this.messages = [];
  }
}

export interface AuthHarness {
  db: Db;
  base: BackendContext;
  /** A context over the same database with some settings changed. */
  context(overrides?: Partial<BackendContext> & { authSettings?: { refreshTokenReuseInterval?: number } }): BackendContext;
  /** supabase-js talking to handleAuth with the given key (anon by default). */
  client(ctx?: BackendContext, options?: { key?: string; flowType?: 'implicit' | 'pkce' }): SupabaseClient;
  admin(ctx?: BackendContext): SupabaseClient;
  /** A raw request to /auth/v1<path>, with the anon apikey unless headers say otherwise. */
  call(path: string, init?: RequestInit, ctx?: BackendContext): Promise<Response>;
  uniqueEmail(label: string): string;
  close(): Promise<void>;
}

async function openHarness(db: Db, onClose: () => Promise<void>): Promise<AuthHarness> {
  await db.exec(BOOTSTRAP);
  await db.exec(FIXTURE);
  const { anonKey, serviceRoleKey } = await makeApiKeys(DEFAULT_JWT_SECRET);
  const base: BackendContext = {
    db,
    url: BACKEND_URL,
    siteUrl: SITE_URL,
    jwtSecret: DEFAULT_JWT_SECRET,
    anonKey,
    serviceRoleKey,
    jwtExpiry: 3600,
    confirmEmail: false,
    outbox: new MemoryOutbox(),
    quiet: true,
  };
  const context: AuthHarness['context'] = (overrides = {}) => ({ ...base, outbox: new MemoryOutbox(), ...overrides });
  const client: AuthHarness['client'] = (ctx = base, options = {}) =>
    createClient(ctx.url, options.key ?? ctx.anonKey, {
      global: { fetch: (input, init) => handleAuth(new Request(input, init), ctx) },
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: options.flowType },
    });
  return {
    db,
    base,
    context,
    client,
    admin: (ctx = base) => client(ctx, { key: ctx.serviceRoleKey }),
    call: (path, init = {}, ctx = base) => {
      const headers = new Headers(init.headers);
      if (!headers.has('apikey')) headers.set('apikey', ctx.anonKey);
      return handleAuth(new Request(`${ctx.url}/auth/v1${path}`, { ...init, headers }), ctx);
    },
    uniqueEmail: (label) => `${label}-${randomUUID().slice(0, 8)}@example.com`,
    close: async () => {
      await db.close();
      await onClose();
    },
  };
}

export async function openPgliteHarness(): Promise<AuthHarness> {
  return openHarness(await openPglite(), async () => {});
}

/** A database of its own on the PostgreSQL server at `serverUrl`, dropped on close. */
export async function openPostgresHarness(serverUrl: string): Promise<AuthHarness> {
  const name = `auth_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const server = await openPostgres(serverUrl);
  await server.exec(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  return openHarness(db, async () => {
    await server.exec(`drop database if exists ${name} with (force)`);
    await server.close();
  });
}

/** The claims of a JWT, unverified (the tests check what the server put in). */
export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}
