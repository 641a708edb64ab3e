// The dashboard's figures as public.dashboard_overview() returns them, and the
// pure rules the screen applies to them (docs/product-guide.md).
import type { Tone } from './tones';

export interface RecentQuote {
  id: string;
  quote_number: string | null;
  total: number;
  currency: string | null;
  status: string | null;
  created_at: string;
  contact_name: string | null;
}

export interface RecentLead {
  id: string;
  name: string;
  company: string | null;
  status: string | null;
  created_at: string;
}

export interface DashboardOverview {
  active_leads: number;
  total_leads: number;
  quote_count: number;
  quote_pipeline: number;
  monthly_revenue: number;
  active_modules: number;
  account_status: string | null;
  trial_ends_at: string | null;
  this_month: { quotes: number; quote_value: number; leads: number };
  recent_quotes: RecentQuote[];
  recent_leads: RecentLead[];
  getting_started: { has_lead: boolean; has_quote: boolean; has_client: boolean };
}

/** What the page shows when the read failed (docs/product-guide.md: a dashboard load failure is only logged). */
export const EMPTY_OVERVIEW: DashboardOverview = {
  active_leads: 0,
  total_leads: 0,
  quote_count: 0,
  quote_pipeline: 0,
  monthly_revenue: 0,
  active_modules: 0,
  account_status: null,
  trial_ends_at: null,
  this_month: { quotes: 0, quote_value: 0, leads: 0 },
  recent_quotes: [],
  recent_leads: [],
  getting_started: { has_lead: false, has_quote: false, has_client: false },
};

export const RECENT_QUOTES = 3;
export const RECENT_LEADS = 2;
export const RECENT_ACTIVITY = 4;

export interface ActivityItem {
  kind: 'quote' | 'lead';
  id: string;
  title: string;
  detail: string;
  status: string;
  created_at: string;
}

/** As docs/product-guide.md says: up to 3 quotes and 2 leads, mixed newest first, at most 4 shown. */
export function recentActivity(quotes: RecentQuote[], leads: RecentLead[]): ActivityItem[] {
  const items: ActivityItem[] = [
    ...quotes.slice(0, RECENT_QUOTES).map((q) => ({
      kind: 'quote' as const,
      id: q.id,
      title: `Quote ${q.quote_number ?? 'Draft Quote'}`,
      detail: q.contact_name ?? 'No contact',
      status: q.status ?? 'draft',
      created_at: q.created_at,
    })),
    ...leads.slice(0, RECENT_LEADS).map((l) => ({
      kind: 'lead' as const,
      id: l.id,
      title: `New lead: ${l.name}`,
      detail: l.company ?? '',
      status: l.status ?? 'new',
      created_at: l.created_at,
    })),
  ];
  return items
    .sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())
    .slice(0, RECENT_ACTIVITY);
}

/**
 * As docs/product-guide.md says: sent shows 'Sent'; new shows 'New'; completed and delivered show a
 * green 'Completed' or 'Delivered'; anything else is an outlined badge with
 * the raw status.
 */
export function activityBadge(status: string): { label: string; variant: Tone } {
  switch (status) {
    case 'sent':
      return { label: 'Sent', variant: 'default' };
    case 'new':
      return { label: 'New', variant: 'secondary' };
    case 'completed':
      return { label: 'Completed', variant: 'green' };
    case 'delivered':
      return { label: 'Delivered', variant: 'green' };
    default:
      return { label: status, variant: 'outline' };
  }
}

/** 'active' → 'Active'; no account read → 'Unknown'. */
export function accountStatusLabel(status: string | null): string {
  if (!status) return 'Unknown';
  return status.charAt(0).toUpperCase() + status.slice(1);
}
