// Cross-site request forgery guard, besides SameSite=Lax cookies: a state-changing
// request must come from a page of our own origin. Checked by the Worker before
// anything else runs.
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

export function isRefusedCrossSiteRequest(request: Request): boolean {
  return !SAFE_METHODS.has(request.method) && !isSameOrigin(request);
}

/**
 * The Worker answers such a request itself, before React Router (whose own
 * origin check would answer a bare 400), with a page that says what happened.
 */
export function crossSiteRefusal(): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request refused</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">
<h1>Request refused</h1><p>${CROSS_ORIGIN_MESSAGE}</p><p><a href="/">Return to Home</a></p></body></html>`;
  return new Response(html, { status: 403, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
