// Shared moves for the database tests through the local backend: a fresh
// backend per test file, supabase-js clients, and users made through the real
// paths (sign-up, invite-user + accept-invitation), each signed in with their
// own token.
import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import type { Queryable } from '../../../supabase/local/db.ts';
import { startTestBackend } from '../../../supabase/local/testing.ts';
import { uniqueEmail } from '../../support/accounts.ts';
import { confirmationTokenHashFor } from '../../support/confirmation-mail.ts';

export const PASSWORD = 'correct-horse-9';

export interface TestBackend {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The key the app's Worker signs the client's IP and user agent with (x-opshub-client). */
  auditSigningSecret: string;
  /** The database itself, as its owner: for what no API role may do (reading private tables, the catalogue). */
  db: Queryable;
  stop(): Promise<void>;
}

/**
 * A backend on a fresh copy of the migrated + seeded database: PGlite, or
 * PostgreSQL when asked (`on: 'postgres'`, or DB_TEST_BACKEND=postgres for the
 * whole suite) and TEST_POSTGRES_URL is set. `restarted`: that database kept,
 * stopped and started again as `npm start` does on kept data.
 */
export async function startBackend(options: { on?: 'pglite' | 'postgres'; restarted?: boolean } = {}): Promise<TestBackend> {
  const on = options.on ?? (process.env.DB_TEST_BACKEND === 'postgres' ? 'postgres' : 'pglite');
  const postgresUrl = on === 'postgres' ? process.env.TEST_POSTGRES_URL : undefined;
  if (on === 'postgres' && !postgresUrl) throw new Error('TEST_POSTGRES_URL is not set');
  return (await startTestBackend({ quiet: true, postgresUrl, restarted: options.restarted })) as unknown as TestBackend;
}

/**
 * Every relation the REST API could expose in schema public (tables,
 * partitioned tables, views, materialized views, foreign tables), from the
 * catalogue: a matrix test built on it fails on a relation it has no case for.
 */
export async function publicRelations(backend: TestBackend): Promise<{ name: string; kind: 'table' | 'view' }[]> {
  const { rows } = await backend.db.query<{ name: string; relkind: string }>(
    `select c.relname as name, c.relkind::text as relkind
       from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
      order by c.relname`);
  return rows.map((r) => ({ name: r.name, kind: r.relkind === 'v' || r.relkind === 'm' ? 'view' : 'table' }));
}

/** The relations of public that hold one account's rows: those with an account_id column, or accounts itself. */
export async function accountScopedRelations(backend: TestBackend): Promise<string[]> {
  const { rows } = await backend.db.query<{ name: string }>(
    `select c.relname as name
       from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and (c.relname = 'accounts'
             or exists (select 1 from pg_catalog.pg_attribute a
                         where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped))
      order by c.relname`);
  return rows.map((r) => r.name);
}

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

export const anonClient = (backend: TestBackend): SupabaseClient =>
  createClient(backend.url, backend.anonKey, { auth: noSession });

export const serviceClient = (backend: TestBackend): SupabaseClient =>
  createClient(backend.url, backend.serviceRoleKey, { auth: noSession });

export interface Member {
  client: SupabaseClient;
  authUserId: string;
  /** public.users.id */
  userId: string;
  accountId: string;
  email: string;
  role: string;
}

async function memberFor(client: SupabaseClient, authUserId: string, email: string): Promise<Member> {
  const { data, error } = await client.from('users').select('id, account_id, role').eq('auth_user_id', authUserId).single();
  if (error) throw new Error(`reading own users row: ${error.message}`);
  return { client, authUserId, userId: data.id, accountId: data.account_id, email, role: data.role };
}

export async function signInAs(backend: TestBackend, email: string, password = PASSWORD): Promise<Member> {
  const client = anonClient(backend);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.user) throw new Error(`sign-in of ${email} failed: ${error?.message}`);
  return memberFor(client, data.user.id, email);
}

/** A brand-new account through the real sign-up: its first user is its admin. */
export async function signUpFreshAdmin(backend: TestBackend, label = 'admin'): Promise<Member> {
  const client = anonClient(backend);
  const email = uniqueEmail(label);
  const { data, error } = await client.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { first_name: label, last_name: 'Tester' } },
  });
  if (error || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
  if (data.session) throw new Error('sign-up returned a session before the address was confirmed');
  await confirmSignUp(backend, client, email);
  return memberFor(client, data.user.id, email);
}

/** Follows the confirmation mailed to `email` as the app's /auth/confirm does; `client` is then signed in. */
export async function confirmSignUp(backend: TestBackend, client: SupabaseClient, email: string): Promise<void> {
  const token_hash = await confirmationTokenHashFor(backend.url, email);
  const { data, error } = await client.auth.verifyOtp({ token_hash, type: 'email' });
  if (error || !data.session) throw new Error(`confirming ${email} failed: ${error?.message ?? 'no session'}`);
}

export interface FunctionResult<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** Calls /functions/v1/<name> with supabase-js and returns status and JSON body, success or not. */
export async function invoke<T = Record<string, unknown>>(
  client: SupabaseClient,
  name: string,
  body: unknown,
): Promise<FunctionResult<T>> {
  const { data, error, response } = await client.functions.invoke(name, { body: body as Record<string, unknown> });
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: (await res.json()) as T };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: data as T };
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The invitation token from the last mail sent to this address (GET /_outbox). */
export async function invitationTokenFor(backend: TestBackend, email: string): Promise<string> {
  const mails = (await (await fetch(`${backend.url}/_outbox`)).json()) as OutboxMail[] | { messages: OutboxMail[] };
  const list = Array.isArray(mails) ? mails : mails.messages;
  const mail = list.filter((m) => m.to === email).at(-1);
  const token = mail && /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation mail for ${email}`);
  return token;
}

/** Invites a user of the given role into the admin's account and signs them in. */
export async function addMember(backend: TestBackend, admin: Member, role: string, label = role): Promise<Member> {
  const email = uniqueEmail(label);
  const invited = await invoke(admin.client, 'invite-user', { email, role, first_name: label, last_name: 'Member' });
  if (invited.status !== 201) throw new Error(`invite failed: ${JSON.stringify(invited.body)}`);
  const token = await invitationTokenFor(backend, email);
  const accepted = await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD });
  if (accepted.status !== 201) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  return signInAs(backend, email);
}

/** create_quote's arguments: a one-line quote for Quinn Co, with any of them changed. */
export function quoteArgs(unitPrice: number, quantity: number, currency = 'USD', changes: Record<string, unknown> = {}) {
  return {
    p_contact_name: 'Quinn', p_contact_email: 'quinn@q.test', p_company: 'Quinn Co', p_description: 'Widgets',
    p_unit_price: unitPrice, p_quantity: quantity, p_currency: currency, p_expires_in_days: 7, p_notes: 'Rush',
    ...changes,
  };
}

/**
 * An hour passes for the private.hit_rate_limit counters whose key is like
 * `keyLike`: their windows move an hour into the past (an hourly limit's window ends).
 */
export async function anHourLater(backend: TestBackend, keyLike: string): Promise<void> {
  await backend.db.query(
    `update private.rate_limit_counters
        set window_start = window_start - interval '1 hour', window_end = window_end - interval '1 hour'
      where key like $1`, [keyLike]);
}
