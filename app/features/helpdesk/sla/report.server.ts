// The SLA report (decisions 075, 089): helpdesk_sla_report's rows for a period (the
// conversations started in it), per agent and priority, with met percentages
// (first response, next responses, resolution),
// and the same as CSV. Row-level security decides who sees figures: staff.
import { csvField } from '~/lib/csv';
import type { Supabase } from '~/lib/supabase.server';
import { nextResponsesBreached, percent, PERIODS, type ReportRow } from './report-figures';

export type { ReportRow };

export function readPeriod(url: URL): string {
  return PERIODS.find((p) => p.value === url.searchParams.get('days'))?.value ?? '30';
}

export async function loadSlaReport(supabase: Supabase, days: string, now = new Date()) {
  const from = new Date(now.getTime() - Number(days) * 86400_000).toISOString();
  const { data, error } = await supabase.rpc('helpdesk_sla_report', { p_from: from, p_to: now.toISOString() });
  if (error) console.error(`sla report: ${error.message}`);
  return { rows: ((data ?? []) as unknown as ReportRow[]).map(numeric), failed: error !== null };
}

const numeric = (r: ReportRow): ReportRow => ({
  ...r,
  conversations: Number(r.conversations),
  first_response_total: Number(r.first_response_total),
  first_response_met: Number(r.first_response_met),
  next_response_total: Number(r.next_response_total),
  next_response_met: Number(r.next_response_met),
  resolution_total: Number(r.resolution_total),
  resolution_met: Number(r.resolution_met),
  avg_first_response_minutes: r.avg_first_response_minutes === null ? null : Number(r.avg_first_response_minutes),
  csat_count: Number(r.csat_count),
  csat_average: r.csat_average === null ? null : Number(r.csat_average),
});

export function reportCsv(rows: ReportRow[]): string {
  const header = ['Agent', 'Priority', 'Conversations', 'First response met %', 'Next response met %', 'Next responses met', 'Next responses breached', 'Resolution met %', 'Average first response (minutes)', 'CSAT answers', 'CSAT average'];
  const lines = rows.map((r) => [
    r.assignee_name ?? 'Unassigned', r.priority, r.conversations,
    percent(r.first_response_met, r.first_response_total),
    percent(r.next_response_met, r.next_response_total), r.next_response_met, nextResponsesBreached(r),
    percent(r.resolution_met, r.resolution_total),
    r.avg_first_response_minutes ?? '', r.csat_count, r.csat_average ?? '',
  ].map(csvField).join(','));
  return [header.map(csvField).join(','), ...lines].join('\r\n') + '\r\n';
}
