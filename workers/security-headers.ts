// Security headers for every response the app renders. The CSP allows only our
// own origin plus inline scripts carrying this response's nonce.
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  const directives = [
    "default-src 'self'",
    dev ? "script-src 'self' 'unsafe-inline'" : `script-src 'self' 'nonce-${nonce}'`,
    // Radix sets inline style attributes for positioning.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join('; ');
}

/** What a downloaded file runs with: nothing (no script, no requests, an origin of its own). */
export const FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";

/** A year, the value HSTS preload lists expect; sent only on https, where browsers honour it. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

export function applySecurityHeaders(headers: Headers, nonce: string, dev: boolean, requestUrl: string): void {
  if (requestUrl.startsWith('https:')) headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  if ((headers.get('Content-Type') ?? '').startsWith('text/html')) {
    headers.set('Content-Security-Policy', contentSecurityPolicy(nonce, dev));
  } else if (/^\s*attachment/i.test(headers.get('Content-Disposition') ?? '') && !headers.has('Content-Security-Policy')) {
    // A file handed over (a PDF, a CSV, a document's image): data, never a page
    // of our origin, even when a browser is made to open it (as Storage serves files).
    headers.set('Content-Security-Policy', FILE_CONTENT_SECURITY_POLICY);
  }
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  // Nothing of ours is framed, except a document's file beside its fields, which says SAMEORIGIN itself.
  if (headers.get('X-Frame-Options') !== 'SAMEORIGIN') headers.set('X-Frame-Options', 'DENY');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
}
