// Audit log search (docs/product-guide.md): a search text and an action filter, read from
// the URL so the list works without JavaScript and can be bookmarked.
export const AUDIT_TEXTS = {
  restrictedTitle: 'Access Restricted',
  restricted: 'Only administrators can view audit logs',
  loadFailed: 'Failed to fetch audit logs',
} as const;

export const MAX_SEARCH_LENGTH = 100;

export interface AuditQuery {
  q: string;
  action: string;
}

export function readAuditQuery(searchParams: URLSearchParams): AuditQuery {
  const q = (searchParams.get('q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const action = (searchParams.get('action') ?? '').trim();
  return { q, action: /^[a-z]+(_[a-z0-9]+)*$/.test(action) ? action : '' };
}
