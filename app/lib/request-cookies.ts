// What the Worker reads of a request's cookies before anything else does: which
// are there (the edge cache, the session check, the toast), and whether the
// site is served over https (cookies it sets are then marked Secure).
import { parseCookieHeader } from '@supabase/ssr';

/** Supabase's auth cookies: `sb-<ref>-auth-token`, chunked as `.0`, `.1`. */
export const SESSION_COOKIE_NAME = /^sb-.+-auth-token(\.\d+)?$/;

/** The names of the cookies the request carries. */
export function cookieNames(request: Request): string[] {
  const header = request.headers.get('Cookie');
  return header ? parseCookieHeader(header).map(({ name }) => name) : [];
}

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === 'https:';
}
