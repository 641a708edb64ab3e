// Sequential backend round trips, as the test proxy (backend-proxy.ts) times
// them: plain data and arithmetic, so Node and workerd tests share it.

/** A user agent starting with this has its requests held DELAY_MS each, as a backend in another region would. */
export const DELAYED_CLIENT = 'round-trips ';
export const DELAY_MS = 50;

/** One request as the proxy saw it: milliseconds since the proxy started. */
export interface TimedRequest {
  request: string;
  start: number;
  end: number;
}

/**
 * How many backend round trips a page waited on, one after another: the
 * longest chain of requests each starting after the previous one's answer
 * ended. Requests made in parallel overlap and count once.
 */
export function sequentialRoundTrips(requests: TimedRequest[]): number {
  const byStart = [...requests].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  byStart.forEach((current, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (byStart[j].end <= current.start) before = Math.max(before, depth[j]);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}
