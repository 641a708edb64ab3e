// New automation (docs/product-guide.md): name and description required;
// trigger, action and frequency from their lists; conditions optional.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredText, type Option } from '~/lib/schemas/fields';

export const TRIGGERS = ['quote_accepted', 'lead_created', 'invoice_overdue', 'client_registered', 'scheduled_time'] as const;
export type Trigger = (typeof TRIGGERS)[number];
export const TRIGGER_LABELS: Record<Trigger, string> = {
  quote_accepted: 'Quote Accepted',
  lead_created: 'Lead Created',
  invoice_overdue: 'Invoice Overdue',
  client_registered: 'Client Registered',
  scheduled_time: 'Scheduled Time',
};

export const ACTIONS = ['send_email', 'create_invoice', 'update_status', 'assign_task', 'generate_report'] as const;
export type AutomationAction = (typeof ACTIONS)[number];
export const ACTION_LABELS: Record<AutomationAction, string> = {
  send_email: 'Send Email',
  create_invoice: 'Create Invoice',
  update_status: 'Update Status',
  assign_task: 'Assign Task',
  generate_report: 'Generate Report',
};

export const FREQUENCIES = ['immediate', 'daily', 'weekly', 'monthly', 'custom'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  immediate: 'Immediate',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  custom: 'Custom',
};

function options<T extends string>(values: readonly T[], labels: Record<T, string>): Option<T>[] {
  return values.map((value) => ({ value, label: labels[value] }));
}
export const TRIGGER_OPTIONS = options(TRIGGERS, TRIGGER_LABELS);
export const ACTION_OPTIONS = options(ACTIONS, ACTION_LABELS);
export const FREQUENCY_OPTIONS = options(FREQUENCIES, FREQUENCY_LABELS);

export const AUTOMATION_STATUSES = ['Active', 'Paused', 'Failed', 'Draft'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

export const newAutomationSchema = z.object({
  name: requiredText('Name'),
  trigger: oneOf(TRIGGERS, 'Trigger').default('quote_accepted'),
  action: oneOf(ACTIONS, 'Action').default('send_email'),
  frequency: oneOf(FREQUENCIES, 'Frequency').default('immediate'),
  description: requiredText('Description', 5000),
  conditions: optionalText('Conditions', 5000),
});

export type NewAutomation = z.output<typeof newAutomationSchema>;
