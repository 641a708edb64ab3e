// The shape of analytics_figures' answer (migration 20261204500001) and the
// small sums the screen and the exports make of it. Money is in cents and
// always carries its currency: nothing here adds one currency to another.
import type { Goals } from './goals';

export interface SalesFigures {
  currency: string;
  quotes: number;
  value: number;
  sent: number;
  signed: number;
  signed_value: number;
  pipeline_value: number;
}

export interface CashFigures {
  currency: string;
  invoiced: number;
  invoices: number;
  collected: number;
  overdue: number;
  overdue_count: number;
  days_to_pay: number | null;
}

export interface PeriodFigures {
  from: string;
  to: string;
  timezone: string;
  sales: SalesFigures[];
  cash: CashFigures[];
  leads: { total: number; by_source: Record<string, number>; by_status: Record<string, number> };
  clients: { new_clients: number };
  /**
   * Conversations started in the range; of them answered, and the mean hours to the first answer (null: none answered).
   * SLA: first-response and resolution targets that fell due in the range, met (done by the deadline) and missed
   * (breached); CSAT: the answers given in the range and their mean score (null: none) (20261206300001, decision 088).
   */
  helpdesk: {
    conversations: number;
    responded?: number;
    first_response_hours?: number | null;
    sla_met?: number;
    sla_missed?: number;
    csat_responses?: number;
    csat_average?: number | null;
  };
  /** Shipments delivered in the range: with an estimated date, and by the end of it. */
  logistics?: { delivered: number; with_estimate: number; on_time: number };
  /** Compliance now (not a period): items, compliant ones, reviews past their date (up to 1,000). */
  compliance?: { total: number; compliant: number; overdue_reviews: number };
}

/** Share in whole percent, or null when there is nothing to share. */
export function share(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

export interface AnalyticsPage {
  range: string;
  current: PeriodFigures;
  previous: PeriodFigures;
  /** Monthly Goals: the targets and this month's figures so far (20261205500004). */
  goals?: Goals;
}

/** Signed ÷ sent, in whole percent; null when nothing was sent (no rate, rather than 0%). */
export function conversionRate(sales: Pick<SalesFigures, 'sent' | 'signed'>[]): number | null {
  const sent = sales.reduce((sum, row) => sum + row.sent, 0);
  const signed = sales.reduce((sum, row) => sum + row.signed, 0);
  return sent === 0 ? null : Math.round((100 * signed) / sent);
}

/** Quotes are counted across currencies (a count is not money). */
export function quoteCount(sales: SalesFigures[]): number {
  return sales.reduce((sum, row) => sum + row.quotes, 0);
}

/** The change from the previous period, as '+12%' / '−5%', or a plain statement when there was nothing before. */
export function change(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? 'No change from the previous period' : 'None in the previous period';
  const percent = Math.round(((current - previous) / previous) * 100);
  if (percent === 0) return 'No change from the previous period';
  return `${percent > 0 ? '+' : '−'}${Math.abs(percent)}% from the previous period`;
}

/** The same currency's row of the previous period, or zeros. */
export function previousOf<T extends { currency: string }>(rows: T[], currency: string, empty: T): T {
  return rows.find((row) => row.currency === currency) ?? empty;
}

export function isEmpty(figures: PeriodFigures): boolean {
  return (
    figures.sales.length === 0 &&
    figures.cash.length === 0 &&
    figures.leads.total === 0 &&
    figures.clients.new_clients === 0 &&
    figures.helpdesk.conversations === 0
  );
}

export const LEAD_SOURCE_LABELS: Record<string, string> = {
  website: 'Website',
  referral: 'Referral',
  linkedin: 'LinkedIn',
  email: 'Email',
  event: 'Event',
  other: 'Other',
};
export const LEAD_STATUS_LABELS: Record<string, string> = { new: 'New', qualified: 'Qualified', contacted: 'Contacted', lost: 'Lost' };
