// /rfp (docs/product-guide.md): three sample RFPs (value, deadline, submissions, days left, status).
import type { RfpStatus } from './schema';

export interface SampleRfp {
  id: string;
  title: string;
  company: string;
  /** Integer cents. */
  value: number;
  deadline: string;
  submissions: number;
  daysLeft: number;
  status: RfpStatus;
}

export const SAMPLE_RFPS: SampleRfp[] = [
  {
    id: 'rfp-1',
    title: 'Enterprise Logistics Platform',
    company: 'Global Manufacturing Inc.',
    value: 50_000_000,
    deadline: '2025-02-15',
    submissions: 12,
    daysLeft: 18,
    status: 'Active',
  },
  {
    id: 'rfp-2',
    title: 'Document Processing Automation',
    company: 'City Health Services',
    value: 12_500_000,
    deadline: '2025-02-01',
    submissions: 7,
    daysLeft: 4,
    status: 'Submitted',
  },
  {
    id: 'rfp-3',
    title: 'Compliance Management System',
    company: 'First National Bank',
    value: 28_000_000,
    deadline: '2025-01-30',
    submissions: 15,
    daysLeft: 2,
    status: 'Under Review',
  },
];

export const RFP_SUMMARY = {
  active: 18,
  activeNote: '+5 new this week',
  pipelineValue: '$2.4M',
  pipelineNote: 'Across open opportunities',
  winRate: '34%',
  winRateNote: 'Last 12 months',
  dueThisWeek: 4,
  dueThisWeekNote: 'Responses to finish',
};
