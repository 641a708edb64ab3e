// GET /messages/report.csv?days=…: the SLA report as CSV (a resource route).
// Row-level security decides what it holds: staff their account's figures.
import type { Route } from './+types/report-csv';
import { requireUserWith } from '~/lib/auth.server';
import { isStaff } from '~/lib/roles';
import { loadSlaReport, readPeriod, reportCsv } from './report.server';

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const days = readPeriod(url);
  const [{ profile }, report] = await requireUserWith(request, context, (supabase) => loadSlaReport(supabase, days));
  const plain = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' };
  if (!isStaff(profile?.role)) return new Response('Only staff can read the SLA report', { status: 403, headers: plain });
  if (report.failed) return new Response('Failed to load the report', { status: 503, headers: plain });
  return new Response(reportCsv(report.rows), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="sla-report-${new Date().toISOString().slice(0, 10)}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
