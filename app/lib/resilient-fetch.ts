// The fetch the Supabase clients use on the server. A backend that is down or
// overloaded must not hang a page, and a brief outage (a 502/503/504 from the
// gateway, a refused connection) should not fail a read that a second try
// would answer:
// - every request gets a deadline, so a page answers in bounded time;
// - reads (GET/HEAD) are retried with exponential backoff and jitter on a
//   network error or 502/503/504, but not after a timeout (the deadline holds);
// - writes are never retried: a POST that reached the server may have written,
//   and repeating it could write twice (a refresh-token POST would even be
//   refused as a reuse).

export interface ResilientFetchOptions {
  /** Deadline of one attempt. */
  timeoutMs?: number;
  /** Further attempts of a read after the first. */
  retries?: number;
  /** First backoff; doubled per retry, with up to 50% jitter. */
  backoffMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export const RETRYABLE_STATUSES = new Set([502, 503, 504]);

export class BackendTimeoutError extends Error {
  constructor(url: string, timeoutMs: number) {
    super(`no answer from ${new URL(url).pathname} within ${timeoutMs} ms`);
    this.name = 'BackendTimeoutError';
  }
}

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

export function createResilientFetch(options: ResilientFetchOptions = {}): typeof fetch {
  const { timeoutMs = 8_000, retries = 2, backoffMs = 150 } = options;
  const baseFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  return async (input, init) => {
    // Read from the arguments, not a Request built from them: that would copy
    // the headers and body of every backend call only to learn these three.
    const asRequest = input instanceof Request ? input : undefined;
    const method = (init?.method ?? asRequest?.method ?? 'GET').toUpperCase();
    const callerSignal = init?.signal ?? asRequest?.signal;
    const url = asRequest?.url ?? String(input);
    const attempts = isRead(method) ? 1 + retries : 1;
    for (let attempt = 1; ; attempt++) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
      try {
        // Only reads (no body) are sent more than once, so the same input serves every attempt.
        const response = await baseFetch(input, { ...init, signal });
        if (attempt < attempts && RETRYABLE_STATUSES.has(response.status)) {
          await response.body?.cancel();
        } else {
          return response;
        }
      } catch (error) {
        if (deadline.aborted && !callerSignal?.aborted) throw new BackendTimeoutError(url, timeoutMs);
        if (attempt >= attempts || callerSignal?.aborted) throw error;
      }
      const backoff = backoffMs * 2 ** (attempt - 1);
      await sleep(backoff + Math.random() * backoff * 0.5);
    }
  };
}
