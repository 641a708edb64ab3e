// Audit log search (docs/product-guide.md): a search text and an action filter, read from
// the URL so the list works without JavaScript and can be bookmarked.
export const AUDIT_TEXTS = {
  restrictedTitle: 'Access Restricted',
  restricted: 'Only administrators can view audit logs',
  loadFailed: 'Failed to fetch audit logs',
} as const;

export const MAX_SEARCH_LENGTH = 100;

/** A page of the screen's table; one row more is read to know whether a next page exists (the cap is 100 per read). */
export const AUDIT_PAGE_SIZE = 50;

/** Deep offsets get slow and no one pages that far by hand (the database stops there too). */
export const MAX_AUDIT_PAGE = 500;

export interface AuditQuery {
  q: string;
  action: string;
  /** From 1. */
  page: number;
}

export function readAuditQuery(searchParams: URLSearchParams): AuditQuery {
  const q = (searchParams.get('q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const action = (searchParams.get('action') ?? '').trim();
  const rawPage = Number.parseInt(searchParams.get('page') ?? '1', 10);
  const page = Number.isFinite(rawPage) ? Math.min(Math.max(rawPage, 1), MAX_AUDIT_PAGE) : 1;
  return { q, action: /^[a-z]+(_[a-z0-9]+)*$/.test(action) ? action : '', page };
}

/** A link to the log (or its export) for a search, filter and page. */
export function auditHref(pathname: string, query: AuditQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.action) params.set('action', query.action);
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `${pathname}?${text}` : pathname;
}
