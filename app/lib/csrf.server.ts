// Cross-site request forgery guard, besides SameSite=Lax cookies: a state-changing
// request must come from a page of our own origin.
import { data, type MiddlewareFunction } from 'react-router';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSameOrigin(request: Request): boolean {
  const expected = new URL(request.url).origin;
  const origin = request.headers.get('Origin');
  if (origin) return origin === expected;
  // Some privacy settings drop Origin; a same-origin Referer is then accepted.
  const referer = request.headers.get('Referer');
  if (!referer) return false;
  try {
    return new URL(referer).origin === expected;
  } catch {
    return false;
  }
}

export const CROSS_ORIGIN_MESSAGE = 'This form was sent from another site and has been refused.';

export const csrfMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request)) {
    throw data({ error: CROSS_ORIGIN_MESSAGE }, { status: 403 });
  }
  return next();
};
