// The runtime-neutral contract of every server function: a handler is
// `(request, deps) => Promise<Response>`. The Deno entry (index.ts) builds deps
// from Deno.env for hosted Supabase; the local backend builds them itself.
import type { SupabaseClient } from '@supabase/supabase-js';

export interface Mailer {
  send(message: { to: string; subject: string; text: string; html?: string }): Promise<void>;
}

export interface FunctionDeps {
  supabaseUrl: string;
  anonKey: string;
  /** A client with the service-role key: bypasses RLS, use only after checking the caller. */
  admin: SupabaseClient;
  /** A client that acts as the caller (their Authorization header), so RLS applies. */
  asCaller(authorization: string | null): SupabaseClient;
  mailer: Mailer;
  /** The app's public origin, for links in mail (e.g. /invite/<token>). */
  siteUrl: string;
}

export type FunctionHandler = (request: Request, deps: FunctionDeps) => Promise<Response>;
