// /automations (docs/product-guide.md): three sample workflows (run count, success rate, next run, status).
import type { AutomationAction, AutomationStatus, Trigger } from './schema';

export interface SampleWorkflow {
  id: string;
  name: string;
  description: string;
  trigger: Trigger;
  action: AutomationAction;
  runCount: number;
  /** Percent, 0-100. */
  successRate: number;
  /** ISO time of the next run, or null when it runs on its trigger or is paused. */
  nextRun: string | null;
  nextRunNote: string;
  status: AutomationStatus;
}

export const SAMPLE_WORKFLOWS: SampleWorkflow[] = [
  {
    id: 'wf-1',
    name: 'Quote Follow-up',
    description: 'Email the client 3 days after a quote is accepted with the onboarding checklist.',
    trigger: 'quote_accepted',
    action: 'send_email',
    runCount: 156,
    successRate: 98.7,
    nextRun: null,
    nextRunNote: 'On the next accepted quote',
    status: 'Active',
  },
  {
    id: 'wf-2',
    name: 'Overdue Invoice Reminder',
    description: 'Send a reminder and assign a finance task when an invoice becomes overdue.',
    trigger: 'invoice_overdue',
    action: 'assign_task',
    runCount: 43,
    successRate: 95.3,
    nextRun: null,
    nextRunNote: 'Paused',
    status: 'Paused',
  },
  {
    id: 'wf-3',
    name: 'Weekly Pipeline Report',
    description: 'Generate the sales pipeline report every Monday morning.',
    trigger: 'scheduled_time',
    action: 'generate_report',
    runCount: 12,
    successRate: 83.3,
    nextRun: '2025-01-20T08:00:00Z',
    nextRunNote: 'Every Monday at 08:00 UTC',
    status: 'Failed',
  },
];

export const AUTOMATION_SUMMARY = {
  active: 8,
  activeNote: '2 paused',
  runsThisMonth: '1,247',
  runsNote: '+23% from last month',
  successRate: '97.2%',
  successNote: 'Last 30 days',
  timeSaved: '42h',
  timeSavedNote: 'This month',
};
