// The audit log's CSV export (a resource route): the entries the screen shows
// for the same search and filter, as a download. Admins only, like the screen;
// the database refuses anyone else anyway.
import type { Route } from './+types/settings.audit-logs.csv';
import { auditCsv } from './audit';
import { loadAuditEntries } from './audit.server';
import { readAuditQuery, AUDIT_TEXTS } from './schema';
import { requireSettingsUser } from '~/lib/settings.server';

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { supabase, canRead } = await requireSettingsUser(request, context);
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' };
  if (!canRead) return new Response(AUDIT_TEXTS.restricted, { status: 403, headers });
  const result = await loadAuditEntries(supabase, readAuditQuery(url.searchParams));
  if (!result.ok) return new Response(AUDIT_TEXTS.loadFailed, { status: 403, headers });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(auditCsv(result.entries), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="audit-logs-${day}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
