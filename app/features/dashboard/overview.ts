// The dashboard's figures as public.dashboard_overview() returns them, and the
// pure rules the screen applies to them (docs/product-guide.md).
import type { MyTask } from '~/features/automations/my-tasks';
import type { Tone } from '~/lib/tones';

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

/** One of the account's module subscriptions (not cancelled). */
export interface SubscribedModule {
  key: string;
  name: string;
  status: string;
}

export interface DashboardOverview {
  active_leads: number;
  total_leads: number;
  quote_count: number;
  /** Open quotes' value, one sum per currency (MoneySum JSON; read with readMoneySums). */
  quote_pipeline: unknown;
  monthly_revenue: number;
  active_modules: number;
  modules: SubscribedModule[];
  account_status: string | null;
  trial_ends_at: string | null;
  /** True in the user's first session: no sign-in before this one. */
  first_visit: boolean;
  this_month: { quotes: number; quote_value: unknown; leads: number };
  recent_quotes: RecentQuote[];
  recent_leads: RecentLead[];
  getting_started: { has_lead: boolean; has_quote: boolean; has_client: boolean };
  /** 'My tasks' (decision 080): the signed-in person's open tasks, newest first, ten at most. */
  my_tasks?: MyTask[];
  /** The helpdesk's queue (decision 072): open conversations, unassigned ones, and since when the oldest waits for an answer. */
  support_queue?: SupportQueue;
}

export interface SupportQueue {
  open: number;
  unassigned: number;
  oldest_waiting_at: string | null;
  /** Decision 083: of the last 30 days, the first responses and their wall-clock average, and the CSAT answers and their mean (1–5). */
  first_responses?: number;
  average_first_response_minutes?: number | null;
  csat_count?: number;
  csat_average?: number | null;
}

/** '35 min' under an hour, else hours with one decimal ('2.4 h', as spec.md's card writes it). */
export function formatResponseTime(minutes: number | null | undefined): string | null {
  if (minutes === null || minutes === undefined || !Number.isFinite(Number(minutes))) return null;
  const m = Number(minutes);
  return m < 60 ? `${Math.round(m)} min` : `${(m / 60).toFixed(1)} h`;
}

/** What the page shows when the read failed (docs/product-guide.md: a dashboard load failure is only logged). */
export const EMPTY_OVERVIEW: DashboardOverview = {
  active_leads: 0,
  total_leads: 0,
  quote_count: 0,
  quote_pipeline: [],
  monthly_revenue: 0,
  active_modules: 0,
  modules: [],
  account_status: null,
  trial_ends_at: null,
  first_visit: false,
  this_month: { quotes: 0, quote_value: [], leads: 0 },
  recent_quotes: [],
  recent_leads: [],
  getting_started: { has_lead: false, has_quote: false, has_client: false },
  support_queue: { open: 0, unassigned: 0, oldest_waiting_at: null },
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

/** 'Welcome,' in the user's first session, 'Welcome back,' afterwards (docs/product-guide.md, Dashboard). */
export function greeting(firstVisit: boolean, firstName: string): string {
  return `${firstVisit ? 'Welcome' : 'Welcome back'}, ${firstName}`;
}

export interface GettingStartedStep {
  label: string;
  done: boolean;
  /** Where the step is done: the create dialog for those who may create, else the list. */
  to: string | null;
}

/** The checklist: done when the account has a lead, a quote, a client (docs/product-guide.md, Dashboard). */
export function gettingStartedSteps(
  progress: DashboardOverview['getting_started'],
  canWrite: boolean,
): GettingStartedStep[] {
  const target = (list: string) => (canWrite ? `${list}?new` : list);
  return [
    { label: 'Create your account', done: true, to: null },
    { label: 'Add your first lead', done: Boolean(progress.has_lead), to: target('/leads') },
    { label: 'Create your first quote', done: Boolean(progress.has_quote), to: target('/quotes') },
    { label: 'Add a client', done: Boolean(progress.has_client), to: target('/clients') },
  ];
}
