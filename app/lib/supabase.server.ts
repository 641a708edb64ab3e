// One Supabase client per request, bound to that request's cookies. Created by
// middleware (so parallel loaders share it and a token is refreshed at most
// once per request), and every cookie it writes goes out on the response,
// redirects included.
import { env } from 'cloudflare:workers';
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import type { SupabaseClient, User } from '@supabase/supabase-js';
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router';

export interface RequestSupabase {
  supabase: SupabaseClient;
  /** The verified user (asked of the auth server, never read from the cookie alone), or null. Memoised. */
  getUser(): Promise<User | null>;
  /** Set-Cookie and cache headers the client produced; the middleware forwards them. */
  headers: Headers;
}

export const supabaseContext = createContext<RequestSupabase>();

/** Reads Supabase's auth cookies (`sb-<ref>-auth-token`, chunked as `.0`, `.1`). */
export function hasSessionCookie(request: Request): boolean {
  const header = request.headers.get('Cookie') ?? '';
  return parseCookieHeader(header).some(({ name }) => /^sb-.+-auth-token(\.\d+)?$/.test(name));
}

export function createRequestSupabase(request: Request): RequestSupabase {
  const headers = new Headers();
  const secure = new URL(request.url).protocol === 'https:';
  const supabase = createServerClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
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
  });

  let user: Promise<User | null> | undefined;
  const getUser = () =>
    (user ??= supabase.auth.getUser().then(({ data, error }) => (error ? null : data.user)));
  return { supabase, getUser, headers };
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
