// With JavaScript, React Router posts a form by fetch. When that fetch gets no
// answer at all (the network dropped), the action's TypeError went to the error
// boundary, the shell's loaders then failed too, and the person was left on a
// bare 500 page: sidebar and typed values gone (issue 31, decision 044).
// The root's client middleware turns that one failure into action data instead
// (and a <Form>'s navigation into staying put): nothing is revalidated, the page
// stays mounted with what was typed, the submit button returns to idle, focus
// goes back to it and an alert says so. A server that answers,
// even with a 500, is not touched: its error reaches the boundary as before.
import { useEffect } from 'react';
import { data, useNavigate, type DataStrategyResult, type MiddlewareFunction } from 'react-router';
// Relative: the unit tests load this file in Node.
import { showClientToast } from './client-toast';

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

let stay: ((to: string) => void) | undefined;
// The button (or field) that sent the last form.
let sentFrom: Element | null = null;

/**
 * Called by the root: lends the middleware a navigate that keeps the person
 * where the post left from, loading nothing, and notes what sent each form.
 */
export function useOfflineStay() {
  const navigate = useNavigate();
  useEffect(() => {
    stay = (to) => void navigate(to, { replace: true, preventScrollReset: true, defaultShouldRevalidate: false });
  }, [navigate]);
  useEffect(() => {
    const remember = (event: SubmitEvent) => (sentFrom = event.submitter ?? document.activeElement);
    document.addEventListener('submit', remember, true);
    return () => document.removeEventListener('submit', remember, true);
  }, []);
}

/**
 * A busy submit button is disabled, which drops focus to the page's body:
 * once it is enabled again, focus goes back to it, ready to send again.
 */
function refocus(element: Element | null, frames = 60) {
  if (!element?.isConnected || !(element instanceof HTMLElement) || document.activeElement !== document.body) return;
  if (element.matches(':disabled')) {
    if (frames > 0) requestAnimationFrame(() => refocus(element, frames - 1));
  } else element.focus();
}

export const offlineMiddleware: MiddlewareFunction<Record<string, DataStrategyResult>> = async (args, next) => {
  // Where the post leaves from: a navigation changes the URL only once it is done.
  const from = window.location.pathname + window.location.search + window.location.hash;
  const results = await next();
  if (args.request.method === 'GET') return results;
  for (const [routeId, result] of Object.entries(results)) {
    if (result.type !== 'error' || !isNetworkFailure(result.result)) continue;
    // A 4xx/5xx status: React Router revalidates no loader after it (root.tsx's shouldRevalidate skips OFFLINE too).
    // This is what a fetcher's post ends with.
    results[routeId] = { type: 'data', result: data(OFFLINE, 503) };
    showClientToast({ message: OFFLINE_TEXT, description: 'Check your connection, then send it again.' });
    // A <Form>'s post is a navigation to its action's URL (a list row's status
    // form posts to the lead's page), whose loaders would then fail: a
    // navigation back to where it left, loading nothing, replaces it.
    if ((args as { unstable_initiator?: string }).unstable_initiator === 'navigation') stay?.(from);
    refocus(sentFrom);
    sentFrom = null;
  }
  return results;
};
