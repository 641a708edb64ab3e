// One tender feed fetched for the hourly job (issue 38; decision 079): a conditional GET (If-None-Match,
// If-Modified-Since; a 304 says nothing changed), at most 2 MB read (counted as the body streams, whatever
// Content-Length claims) within 10 s for the whole exchange (a hard deadline: a feed that trickles is cut
// off), never to a private, loopback or link-local address (the local stack's own server is allowed by name,
// FEED_ALLOW_HOSTS), redirects followed at most three times and each hop checked the same way.
import { isPrivateHost } from '../../../lib/address-policy.ts';
import { readCappedBytes } from '../../../lib/capped-stream.ts';
import { fetchCheckingRedirects, RefusedHop } from '../../../lib/checked-fetch.ts';

export const FEED_FETCH_LIMITS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 } as const;

/** A fetch that failed in a way the feed's settings page should show ("The feed answered 500"). */
export class FeedFetchError extends Error {}

export type FeedFetchResult =
  | { status: 'not-modified' }
  | { status: 'ok'; text: string; etag: string | null; lastModified: string | null };

export interface FeedFetchOptions {
  /** Exact `host:port` pairs allowed outside the rules (allowedHosts(env.FEED_ALLOW_HOSTS)); empty in production. */
  allow: Set<string>;
  maxBytes?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * A JSON body to POST instead of the conditional GET (a TED search, decision 092): no validators are sent
   * (a search answers afresh each time), and a redirect is followed only when it keeps the method (307, 308).
   */
  postJson?: string;
}

/** Why a feed address may not be fetched, or null when it may. */
export function feedUrlProblem(value: string, allow: Set<string>): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter the feed\'s full address, starting with https://';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Enter the feed\'s full address, starting with https://';
  if (url.username || url.password) return 'Leave the user name and password out of the feed\'s address';
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (allow.has(`${host}:${port}`)) return null;
  if (isPrivateHost(host)) return 'Use the address of a public feed';
  if (!['80', '443', '8080', '8443'].includes(port)) return 'Use a feed on a web port (80, 443, 8080 or 8443)';
  return null;
}

export async function fetchFeed(
  address: string,
  validators: { etag: string | null; lastModified: string | null },
  options: FeedFetchOptions,
): Promise<FeedFetchResult> {
  const maxBytes = options.maxBytes ?? FEED_FETCH_LIMITS.maxBytes;
  const timeoutMs = options.timeoutMs ?? FEED_FETCH_LIMITS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const headers: Record<string, string> = {
      Accept: 'application/json, application/xml, application/rss+xml, application/atom+xml, text/xml;q=0.9, */*;q=0.1',
      'User-Agent': 'OpsHub tender radar',
    };
    const post = options.postJson !== undefined;
    if (post) headers['Content-Type'] = 'application/json';
    if (!post && validators.etag) headers['If-None-Match'] = validators.etag;
    if (!post && validators.lastModified) headers['If-Modified-Since'] = validators.lastModified;
    const response = await fetchCheckingRedirects(address, {
      check: (url) => feedUrlProblem(url, options.allow),
      init: () => (post ? { method: 'POST', body: options.postJson, headers } : { headers }),
      signal: controller.signal,
      maxRedirects: FEED_FETCH_LIMITS.maxRedirects,
      keepMethod: post,
      subject: post ? 'The search' : 'The feed',
      fetch: options.fetch,
    });
    if (response.status === 304 && !post) {
      await response.body?.cancel();
      return { status: 'not-modified' };
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FeedFetchError(`The feed answered ${response.status}`);
    }
    const text = await readCapped(response, maxBytes);
    return { status: 'ok', text, etag: response.headers.get('ETag'), lastModified: response.headers.get('Last-Modified') };
  } catch (error) {
    if (controller.signal.aborted) throw new FeedFetchError(`The feed did not answer within ${Math.round(timeoutMs / 1000)} s`);
    if (error instanceof FeedFetchError) throw error;
    if (error instanceof RefusedHop) throw new FeedFetchError(error.message);
    throw new FeedFetchError(`The feed could not be reached: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300));
  } finally {
    clearTimeout(timer);
  }
}

/** The body as text, read chunk by chunk and given up past maxBytes (a missing or false Content-Length changes nothing). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new FeedFetchError('The feed is larger than 2 MB');
  }
  const bytes = await readCappedBytes(response.body, maxBytes);
  if (bytes === null) throw new FeedFetchError('The feed is larger than 2 MB');
  return new TextDecoder('utf-8').decode(bytes);
}
