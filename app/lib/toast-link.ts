// A toast's link to the record it is about, as the server sets it and the
// page reads it back from the flash cookie.

export interface ToastLink {
  href: string;
  /** What the link says: 'View quote Q-2026-0007'. */
  label: string;
}

/** The link of a toast read from the cookie, if it carries a well-formed one (a same-site path). */
export function toastLink(toast: object | undefined): ToastLink | null {
  const link = (toast as { link?: unknown } | undefined)?.link;
  if (typeof link !== 'object' || link === null) return null;
  const { href, label } = link as Record<string, unknown>;
  if (typeof href !== 'string' || typeof label !== 'string') return null;
  // Only paths of this site: the cookie is signed, but a link is never an open redirect.
  if (!href.startsWith('/') || href.startsWith('//')) return null;
  return { href, label };
}
