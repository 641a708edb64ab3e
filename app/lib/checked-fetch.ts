// A fetch whose redirects are followed by hand, each hop's address checked
// before it is asked (decision 076): with `redirect: 'follow'` a public
// address could send the Worker on to a private one unseen. Shared by the
// tender feeds (rfp) and the SMS/WhatsApp media (helpdesk); each caller gives
// its own address rule and its own per-hop request (credentials only to the
// origin they belong to), and turns a RefusedHop into its own error.
// Imports are relative (no ~/): Node tests load the callers.

export const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** Why a redirect chain was not followed; `first` when the address asked for was refused itself. */
export class RefusedHop extends Error {
  readonly first: boolean;
  constructor(message: string, first = false) {
    super(message);
    this.name = 'RefusedHop';
    this.first = first;
  }
}

export interface CheckedFetchOptions {
  /** Why an address may not be asked, or null when it may. */
  check: (url: string) => string | null;
  /** The request for one hop (method, headers, body); `redirect` and `signal` are set here. */
  init: (url: string) => RequestInit;
  /** One deadline for the whole chain. */
  signal: AbortSignal;
  maxRedirects: number;
  /** What the messages call the thing fetched: 'The feed', 'The media'. */
  subject: string;
  /** Follow only 307 and 308, which keep the method and body (a POST search). */
  keepMethod?: boolean;
  fetch?: typeof fetch;
}

/**
 * The first answer that is not a redirect, after at most `maxRedirects`
 * checked hops. A fetch's own failure (no connection, the deadline) is thrown
 * as it came; a refused hop as RefusedHop, its body cancelled.
 */
export async function fetchCheckingRedirects(url: string, options: CheckedFetchOptions): Promise<Response> {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  let current = url;
  for (let hop = 0; ; hop++) {
    const problem = options.check(current);
    if (problem) throw new RefusedHop(hop === 0 ? problem : `${options.subject} redirects to an address that is refused: ${problem}`, hop === 0);
    const response = await doFetch(current, { ...options.init(current), redirect: 'manual', signal: options.signal });
    if (!REDIRECT_STATUSES.includes(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get('Location');
    if (!location) throw new RefusedHop(`${options.subject} answered ${response.status} without a Location`);
    if (hop >= options.maxRedirects) throw new RefusedHop(`${options.subject} redirects more than ${options.maxRedirects} times`);
    if (options.keepMethod && response.status !== 307 && response.status !== 308) {
      throw new RefusedHop(`${options.subject} answered ${response.status}: it would not be sent on as a POST`);
    }
    current = new URL(location, current).href;
  }
}
