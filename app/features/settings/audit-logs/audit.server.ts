// Reading the audit log for the screen and its CSV export: the same search,
// filter and 100-entry cap per read (docs/product-guide.md), done by the database
// (list_audit_logs), which also names each record and refuses anyone but an
// admin or auditor of the account. The screen reads a page at a time (?page=).
import type { Supabase } from '~/lib/supabase.server';
import type { AuditEntry } from './audit';
import { AUDIT_PAGE_SIZE, auditHref, type AuditQuery } from './schema';

export const AUDIT_LIMIT = 100;

export type AuditResult = { ok: true; entries: AuditEntry[] } | { ok: false; message: string };

/** The latest entries for a search (the CSV export): up to 100. */
export function loadAuditEntries(supabase: Supabase, query: AuditQuery): Promise<AuditResult> {
  return readAudit(supabase, query, AUDIT_LIMIT, 0);
}

export type AuditPage = { ok: true; entries: AuditEntry[]; hasNext: boolean } | { ok: false; message: string };

/** One page of the screen's table (query.page, from 1). */
export async function loadAuditPage(supabase: Supabase, query: AuditQuery): Promise<AuditPage> {
  const read = await readAudit(supabase, query, AUDIT_PAGE_SIZE + 1, (query.page - 1) * AUDIT_PAGE_SIZE);
  if (!read.ok) return read;
  return { ok: true, entries: read.entries.slice(0, AUDIT_PAGE_SIZE), hasNext: read.entries.length > AUDIT_PAGE_SIZE };
}

async function readAudit(supabase: Supabase, query: AuditQuery, limit: number, offset: number): Promise<AuditResult> {
  // An empty search or action is left out: the function's default (null) means "any".
  const { data, error } = await supabase.rpc('list_audit_logs', {
    p_search: query.q || undefined,
    p_action: query.action || undefined,
    p_limit: limit,
    p_offset: offset,
  });
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

/** The export link's query: the screen's own search and filter (the export starts at the latest entry). */
export function auditQueryString(query: AuditQuery): string {
  return auditHref('', { ...query, page: 1 });
}
