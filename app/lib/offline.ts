// With JavaScript, React Router posts a form by fetch. When that fetch gets no
// answer at all (the network dropped), the action's TypeError went to the error
// boundary, the shell's loaders then failed too, and the person was left on a
// bare 500 page: sidebar and typed values gone (issue 31, decision 044).
// The root's client middleware turns that one failure into action data instead:
// nothing is revalidated, the page stays mounted with what was typed, the
// submit button returns to idle and an alert says so. A server that answers,
// even with a 500, is not touched: its error reaches the boundary as before.
import { data, type DataStrategyResult, type MiddlewareFunction } from 'react-router';
import { showClientToast } from '~/lib/client-toast';

export const OFFLINE_TEXT = "You're offline — nothing was saved";

/** The action data (a fetcher's data) of a post that never reached the server. */
export const OFFLINE = Object.freeze({ offline: true });

// fetch's TypeError when no response came: Chromium, Firefox, Safari.
const NO_RESPONSE = /^(Failed to fetch|NetworkError when attempting to fetch resource\.|Load failed)$/;

export function isNetworkFailure(error: unknown): boolean {
  // React Router hands the action's error over wrapped in data(error, status).
  const value = error && typeof error === 'object' && 'init' in error && 'data' in error ? error.data : error;
  return value instanceof TypeError && NO_RESPONSE.test(value.message);
}

export const offlineMiddleware: MiddlewareFunction<Record<string, DataStrategyResult>> = async ({ request }, next) => {
  const results = await next();
  if (request.method === 'GET') return results;
  for (const [routeId, result] of Object.entries(results)) {
    if (result.type !== 'error' || !isNetworkFailure(result.result)) continue;
    // A 4xx/5xx status: React Router revalidates no loader after it (root.tsx's shouldRevalidate skips OFFLINE too).
    results[routeId] = { type: 'data', result: data(OFFLINE, 503) };
    showClientToast({ message: OFFLINE_TEXT, description: 'Check your connection, then send it again.' });
  }
  return results;
};
