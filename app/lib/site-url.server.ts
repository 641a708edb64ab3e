// Links that leave the site in mail (auth links, an invoice's or a quote's
// public link) point at the site's own origin, SITE_URL, never at the host a
// request names: locally that is whatever the client sent, and a link there
// would carry a live token to someone else's server (issue 30, decision 043).
import { env } from 'cloudflare:workers';

/** `path` on the site's origin (SITE_URL). */
export function siteLink(path: string): string {
  return new URL(path, new URL(env.SITE_URL).origin).toString();
}
