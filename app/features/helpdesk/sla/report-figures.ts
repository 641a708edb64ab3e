// The SLA report's periods, row and percentages (decision 075): shared by the page and its CSV.

export const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
] as const;

export interface ReportRow {
  assignee_id: string | null;
  assignee_name: string | null;
  priority: string;
  conversations: number;
  first_response_total: number;
  first_response_met: number;
  /** Waits for our next reply answered or past their deadline (a conversation can have several). */
  next_response_total: number;
  next_response_met: number;
  resolution_total: number;
  resolution_met: number;
  avg_first_response_minutes: number | null;
  csat_count: number;
  csat_average: number | null;
}

/** Next responses past their deadline: answered late, or not answered yet. */
export const nextResponsesBreached = (r: Pick<ReportRow, 'next_response_total' | 'next_response_met'>) =>
  r.next_response_total - r.next_response_met;

/** '83%' of met over due-or-done; '—' when none was due yet. */
export function percent(met: number, total: number): string {
  return total > 0 ? `${Math.round((met / total) * 100)}%` : '—';
}

