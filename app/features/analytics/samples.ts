// /analytics (docs/product-guide.md): KPIs, chart series, Top Performing Services, Lead
// Sources and Monthly Goals. Fixed figures: the analytics screen is a
// demonstration page.

export interface Kpi {
  label: string;
  value: string;
  note: string;
}

export const ANALYTICS_KPIS: Kpi[] = [
  { label: 'Total Revenue', value: '$284,500', note: '+18.2% from last period' },
  { label: 'Conversion Rate', value: '24.8%', note: '+3.1% from last period' },
  { label: 'Active Clients', value: '142', note: '+12 new this month' },
  { label: 'Avg Deal Size', value: '$8,450', note: '+5.4% from last period' },
];

export interface SeriesPoint {
  label: string;
  value: number;
}

/** Revenue per month, whole US dollars. */
export const REVENUE_BY_MONTH: SeriesPoint[] = [
  { label: 'Aug', value: 32_000 },
  { label: 'Sep', value: 38_500 },
  { label: 'Oct', value: 41_200 },
  { label: 'Nov', value: 45_800 },
  { label: 'Dec', value: 52_300 },
  { label: 'Jan', value: 74_700 },
];

/** New leads per month. */
export const LEADS_BY_MONTH: SeriesPoint[] = [
  { label: 'Aug', value: 64 },
  { label: 'Sep', value: 71 },
  { label: 'Oct', value: 68 },
  { label: 'Nov', value: 85 },
  { label: 'Dec', value: 79 },
  { label: 'Jan', value: 102 },
];

export interface ServicePerformance {
  name: string;
  revenue: string;
  deals: number;
  growth: string;
}

export const TOP_SERVICES: ServicePerformance[] = [
  { name: 'Logistics Integration', revenue: '$98,400', deals: 18, growth: '+24%' },
  { name: 'CPQ Implementation', revenue: '$76,200', deals: 14, growth: '+15%' },
  { name: 'Compliance Consulting', revenue: '$54,800', deals: 9, growth: '+8%' },
  { name: 'Document Automation', revenue: '$32,100', deals: 11, growth: '+31%' },
];

export interface LeadSource {
  source: string;
  leads: number;
  /** Percent of all leads. */
  share: number;
}

export const LEAD_SOURCES: LeadSource[] = [
  { source: 'Website', leads: 187, share: 39 },
  { source: 'Referral', leads: 124, share: 26 },
  { source: 'LinkedIn', leads: 86, share: 18 },
  { source: 'Email Campaign', leads: 52, share: 11 },
  { source: 'Events', leads: 29, share: 6 },
];

export interface MonthlyGoal {
  name: string;
  current: number;
  target: number;
  /** How the figures read: '$74,700 of $80,000'. */
  format: 'money' | 'count';
}

export const MONTHLY_GOALS: MonthlyGoal[] = [
  { name: 'Revenue', current: 74_700, target: 80_000, format: 'money' },
  { name: 'New Clients', current: 12, target: 15, format: 'count' },
  { name: 'Quotes Sent', current: 38, target: 50, format: 'count' },
  { name: 'Deals Closed', current: 9, target: 10, format: 'count' },
];
