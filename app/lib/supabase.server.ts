// One Supabase client per request, bound to that request's cookies. Created by
// middleware (so parallel loaders share it and a token is refreshed at most
// once per request), and every cookie it writes goes out on the response,
// redirects included.
import { env } from 'cloudflare:workers';
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import { isAuthRetryableFetchError, type JwtPayload, type SupabaseClient } from '@supabase/supabase-js';
import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { clientOf, fetchSigningClient } from '~/lib/audit-client.server';
import type { Database } from '~/lib/database.types';
import { cookieNames, isSecureRequest, SESSION_COOKIE_NAME } from '~/lib/request-cookies';
import { createResilientFetch } from '~/lib/resilient-fetch';

/** What a page says when the backend cannot be reached (the session is kept). */
export const SERVICE_UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';

/** The page's answer when the backend cannot be reached: a 503 to try again, not a sign-out. */
export function serviceUnavailable() {
  return data({ error: SERVICE_UNAVAILABLE }, { status: 503, headers: { 'Retry-After': '5' } });
}

/** A PostgREST answer that never came: no response at all (status 0), or the gateway's 502/503/504 after the retries. */
export function backendUnreachable(status: number): boolean {
  return status === 0 || status === 502 || status === 503 || status === 504;
}

// One per isolate: it holds no state, only the deadlines and retry policy.
const resilientFetch = createResilientFetch();

/** The server's client, typed with the generated schema (npm run db:types writes app/lib/database.types.ts). */
export type Supabase = SupabaseClient<Database>;

/** Who the session's access token says is signed in, once its signature has been verified. */
export interface SessionUser {
  id: string;
  email: string | undefined;
  user_metadata: Record<string, unknown>;
}

export interface RequestSupabase {
  supabase: Supabase;
  /**
   * The signed-in user, or null: the access token's claims once its signature
   * is verified (never the cookie's word alone), refreshed first when it is
   * due. With an asymmetric signing key (ES256, as Supabase's signing keys)
   * that is done here with the project's public key, fetched once per isolate;
   * with the legacy HS256 secret, which the Worker does not hold, auth-js asks
   * the auth server (decision 024). Memoised. Throws a 503 when the auth
   * server cannot be reached: that is not the same as being signed out.
   */
  getUser(): Promise<SessionUser | null>;
  /** Set-Cookie and cache headers the client produced; the middleware forwards them. */
  headers: Headers;
}

export const supabaseContext = createContext<RequestSupabase>();

/** Whether the request carries Supabase's auth cookies. */
export function hasSessionCookie(request: Request): boolean {
  return cookieNames(request).some((name) => SESSION_COOKIE_NAME.test(name));
}

export function createRequestSupabase(request: Request): RequestSupabase {
  const headers = new Headers();
  const secure = isSecureRequest(request);
  const supabase = createServerClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    cookies: {
      getAll: () =>
        parseCookieHeader(request.headers.get('Cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' })),
      setAll(cookies, cacheHeaders) {
        for (const { name, value, options } of cookies) {
          // Only the server reads these cookies: keep them away from page scripts.
          headers.append(
            'Set-Cookie',
            serializeCookieHeader(name, value, { ...options, httpOnly: true, secure, sameSite: 'lax', path: '/' }),
          );
        }
        for (const [key, value] of Object.entries(cacheHeaders)) headers.set(key, value);
      },
    },
    auth: { flowType: 'pkce', detectSessionInUrl: false },
    // The resilient fetch owns retries (a deadline per attempt, backoff on
    // reads only); postgrest-js's own retries on top of it would multiply the
    // attempts and stretch a page past its deadline when the backend is down.
    db: { retry: false },
    // Every call carries the client's IP and user agent, signed, for the audit log.
    global: { fetch: fetchSigningClient(resilientFetch, clientOf(request), env.AUDIT_SIGNING_SECRET) },
  });

  let user: Promise<SessionUser | null> | undefined;
  const getUser = () => (user ??= verifiedUser(supabase));
  return { supabase, getUser, headers };
}

function unreachable(error: Error): never {
  console.error(`auth server unreachable: ${error.message}`);
  throw serviceUnavailable();
}

// Access tokens whose signature this isolate has verified with the project's
// public key, by token: the same token arrives on every page of a session
// for its lifetime, and its claims cannot change without the signature
// failing. Only signature checks are remembered: an HS256 token is checked by
// the auth server (decision 024) on every request, as before. What a token
// cannot say (signed out, deactivated since) the database answers per
// statement, cached or not.
const verifiedTokens = new Map<string, JwtPayload>();
const MAX_VERIFIED_TOKENS = 1000;

async function verifiedUser(supabase: Supabase): Promise<SessionUser | null> {
  // The session from the cookies, refreshed first when it is due.
  const { data: current, error: sessionError } = await supabase.auth.getSession();
  if (sessionError && isAuthRetryableFetchError(sessionError)) unreachable(sessionError);
  const token = current.session?.access_token;
  if (sessionError || !token) return null;
  let claims = verifiedTokens.get(token);
  if (!claims || typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) {
    if (claims) verifiedTokens.delete(token);
    const { data: answer, error } = await supabase.auth.getClaims(token);
    if (error && isAuthRetryableFetchError(error)) unreachable(error);
    if (error || !answer?.claims.sub) return null;
    claims = answer.claims;
    if (answer.header.alg && !answer.header.alg.startsWith('HS')) {
      if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.delete(verifiedTokens.keys().next().value!);
      verifiedTokens.set(token, claims);
    }
  }
  if (!claims.sub) return null;
  return { id: claims.sub, email: claims.email, user_metadata: claims.user_metadata ?? {} };
}

export const supabaseMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const requestSupabase = createRequestSupabase(request);
  context.set(supabaseContext, requestSupabase);
  // Verify (and refresh, if due) before anything renders, so the refreshed
  // session cookies are known before the response is committed.
  if (hasSessionCookie(request)) await requestSupabase.getUser();
  const response = await next();
  forwardHeaders(requestSupabase.headers, response.headers);
  return response;
};

export function forwardHeaders(from: Headers, to: Headers): void {
  for (const cookie of from.getSetCookie()) to.append('Set-Cookie', cookie);
  from.forEach((value, key) => {
    if (key.toLowerCase() !== 'set-cookie') to.set(key, value);
  });
}

export function getRequestSupabase(context: Readonly<RouterContextProvider>): RequestSupabase {
  return context.get(supabaseContext);
}
