// The edge cache for marketing pages (docs/decisions/002). `/` and `/pricing` are the
// same for every anonymous visitor, so the Worker keeps the rendered HTML in the
// Cache API and serves it without running React Router or reading Supabase.
import { cookieNames, SESSION_COOKIE_NAME } from '~/lib/request-cookies';
import { TOAST_COOKIE } from '~/lib/toast-cookie';

export const CACHEABLE_PATHS = new Set(['/', '/pricing']);

/** Browsers revalidate every time; the edge keeps a copy 5 minutes, serving a stale one up to a day while it refreshes. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** Response header telling tests and operators whether the edge cache answered. */
export const CACHE_STATUS_HEADER = 'X-Edge-Cache';

/**
 * Cookies that make a visitor not anonymous: a Supabase session (`sb-<ref>-auth-token`,
 * possibly chunked as `.0`, `.1`), or a pending flash toast that must be shown.
 */
export function hasPersonalCookie(request: Request): boolean {
  return cookieNames(request).some((name) => SESSION_COOKIE_NAME.test(name) || name === TOAST_COOKIE);
}

export function isCacheableRequest(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = new URL(request.url);
  // A query string would let anyone fill the cache with variants; those render normally.
  if (url.search !== '' || !CACHEABLE_PATHS.has(url.pathname)) return false;
  return !hasPersonalCookie(request);
}

/** The cache key: the path alone, as a GET, whatever headers the visitor sent. */
export function cacheKey(request: Request): Request {
  return new Request(cacheKeyUrl(request), { method: 'GET' });
}

/** The cache key's URL (the key of the copy held in memory too). */
export function cacheKeyUrl(request: Request): string {
  const url = new URL(request.url);
  return `${url.origin}${url.pathname}`;
}

/** Only a plain, cookie-free 200 may be shared between visitors. */
export function isShareable(response: Response): boolean {
  return response.status === 200 && !response.headers.has('Set-Cookie');
}

/**
 * The Cache API's copy of each page, also held in this isolate's memory for a
 * few seconds: a stream of visitors then costs one Cache API read per page
 * every few seconds instead of one per visitor (the read, not the Worker, was
 * most of a hit's time; docs/decisions/028). The Cache API stays the truth:
 * only a copy it answered with is held, a purge drops both, and a held copy
 * outlives its Cache API entry by at most HELD_FOR_MS.
 */
export const HELD_FOR_MS = 5_000;

interface HeldCopy {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  until: number;
}

const held = new Map<string, HeldCopy>();

/** The held copy of the page `key` names while it is fresh, as sent: marked a hit, no body for HEAD. */
export function heldHit(key: string, head: boolean, now = Date.now()): Response | null {
  const copy = held.get(key);
  if (!copy) return null;
  if (copy.until <= now) {
    held.delete(key);
    return null;
  }
  return new Response(head ? null : copy.body, { status: copy.status, headers: copy.headers });
}

/** Holds the copy the Cache API answered with; returns it as sent (see heldHit). */
export async function holdCopy(key: string, hit: Response, head: boolean, now = Date.now()): Promise<Response> {
  const body = await hit.arrayBuffer();
  const headers = new Headers(hit.headers);
  headers.set(CACHE_STATUS_HEADER, 'HIT');
  held.set(key, { status: hit.status, headers: [...headers], body, until: now + HELD_FOR_MS });
  return new Response(head ? null : body, { status: hit.status, headers });
}

/** Drops the cached copies, e.g. after the website settings changed. */
export async function purgeMarketingPages(origin: string): Promise<void> {
  held.clear();
  const cache = await caches.open('marketing');
  await Promise.all([...CACHEABLE_PATHS].map((path) => cache.delete(new Request(`${origin}${path}`))));
}
