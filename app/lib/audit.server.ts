// Reading the audit log for the screen and its CSV export: the same search,
// filter and 100-entry cap (docs/product-guide.md), done by the database (list_audit_logs),
// which also refuses anyone but an admin of the account.
import type { Supabase } from '~/lib/supabase.server';
import type { AuditEntry } from '~/lib/audit';
import type { AuditQuery } from '~/lib/schemas/settings-audit';

export const AUDIT_LIMIT = 100;

export type AuditResult = { ok: true; entries: AuditEntry[] } | { ok: false; message: string };

export async function loadAuditEntries(supabase: Supabase, query: AuditQuery): Promise<AuditResult> {
  // An empty search or action is left out: the function's default (null) means "any".
  const { data, error } = await supabase
    .rpc('list_audit_logs', { p_search: query.q || undefined, p_action: query.action || undefined, p_limit: AUDIT_LIMIT });
  if (error) {
    console.error(`audit logs: ${error.message}`);
    return { ok: false, message: error.message };
  }
  return { ok: true, entries: (data ?? []) as AuditEntry[] };
}

export async function loadAuditActions(supabase: Supabase): Promise<string[]> {
  const { data, error } = await supabase.rpc('audit_log_actions');
  if (error) {
    console.error(`audit log actions: ${error.message}`);
    return [];
  }
  // A one-column set-returning function comes back as rows or, from some servers, as bare values.
  return ((data ?? []) as unknown[])
    .map((row) => (typeof row === 'string' ? row : (row as { action?: unknown } | null)?.action))
    .filter((action): action is string => typeof action === 'string');
}

/** The export link's query: the screen's own search and filter. */
export function auditQueryString(query: AuditQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.action) params.set('action', query.action);
  const text = params.toString();
  return text ? `?${text}` : '';
}
