// Direct access to the local backend from inside workerd, for test set-up that
// no screen offers (an expired invitation) and for checking what was stored.
import { env } from 'cloudflare:workers';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Provided by global-setup.ts. */
    sqlUrl: string;
  }
}

const options = { auth: { persistSession: false, autoRefreshToken: false } } as const;

/** The service role: bypasses RLS. Only for arranging and inspecting test data. */
export function serviceClient(): SupabaseClient {
  return createClient(env.SUPABASE_URL, (env as unknown as { SERVICE_ROLE_KEY_FOR_TESTS: string }).SERVICE_ROLE_KEY_FOR_TESTS, options);
}

export function anonClient(): SupabaseClient {
  return createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, options);
}

/** A client signed in as this user, with their own token (RLS applies). */
export async function userClient(email: string, password: string): Promise<SupabaseClient> {
  const client = anonClient();
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in of ${email} failed: ${error.message}`);
  return client;
}

/**
 * Runs one SQL statement as the database superuser (global-setup's loopback
 * endpoint): only for breaking the database on purpose, e.g. revoking a grant
 * to see that a screen survives a failed read. Undo it in a finally.
 */
export async function runSql(sql: string): Promise<unknown[]> {
  const response = await fetch(inject('sqlUrl'), { method: 'POST', body: sql });
  if (!response.ok) throw new Error(`SQL failed: ${await response.text()}`);
  return (await response.json()) as unknown[];
}

/**
 * Runs `act` with a privilege taken from signed-in users (`revoke <privilege>
 * on <object> from authenticated`), so the database refuses it for real, and
 * gives it back whatever happens.
 */
export async function withoutGrant<T>(privilege: string, on: string, act: () => Promise<T>): Promise<T> {
  await runSql(`revoke ${privilege} on ${on} from authenticated`);
  try {
    return await act();
  } finally {
    await runSql(`grant ${privilege} on ${on} to authenticated`);
  }
}

/** The account and users row of the person who signed up with `email`. */
export async function accountOf(email: string): Promise<{ accountId: string; userId: string }> {
  const { data, error } = await serviceClient().from('users').select('id, account_id').eq('email', email).single();
  if (error) throw error;
  return { accountId: data.account_id as string, userId: data.id as string };
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function outbox(): Promise<OutboxMail[]> {
  const response = await fetch(`${env.SUPABASE_URL}/_outbox`);
  const body = (await response.json()) as OutboxMail[] | { messages: OutboxMail[] };
  return Array.isArray(body) ? body : body.messages;
}

/** The refresh token inside @supabase/ssr's session cookie (`base64-` + base64url JSON). */
export function refreshTokenFromCookie(cookieValue: string): string {
  const encoded = decodeURIComponent(cookieValue).replace(/^base64-/, '');
  const json = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  return (JSON.parse(json) as { refresh_token: string }).refresh_token;
}
