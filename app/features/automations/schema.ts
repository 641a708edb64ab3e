// New automation (docs/product-guide.md, decision 067): name and description,
// the trigger (an event the modules emit, or scheduled_time with its
// frequency; custom takes a cron expression), the action with its settings,
// Draft or Active, and up to three condition rows (field / operator / value),
// all plain form fields so the dialog works without JavaScript.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredText, type Option } from '~/lib/schemas/fields';

// Every event kind the migrations emit (grep emit_event in supabase/migrations),
// the spec's four first. Not offered: quote_expired, which no module emits yet
// (the table's check takes it for when one does).
export const TRIGGERS = [
  'quote_accepted', 'lead_created', 'invoice_overdue', 'client_registered', 'scheduled_time',
  'quote_sent', 'quote_viewed', 'quote_declined', 'invoice_created', 'invoice_sent', 'invoice_paid', 'invoice_void',
  'message_received', 'conversation_resolved', 'shipment_delivered', 'shipment_exception', 'po_sent', 'po_confirmed',
  'document_extracted', 'review_due', 'sla_breached',
] as const;
export type Trigger = (typeof TRIGGERS)[number];
export const TRIGGER_LABELS: Record<Trigger, string> = {
  quote_accepted: 'Quote Accepted',
  lead_created: 'Lead Created',
  invoice_overdue: 'Invoice Overdue',
  client_registered: 'Client Registered',
  scheduled_time: 'Scheduled Time',
  quote_sent: 'Quote Sent',
  quote_viewed: 'Quote Viewed',
  quote_declined: 'Quote Declined',
  invoice_created: 'Invoice Created',
  invoice_sent: 'Invoice Sent',
  invoice_paid: 'Invoice Paid',
  invoice_void: 'Invoice Voided',
  message_received: 'Message Received',
  conversation_resolved: 'Conversation Resolved',
  shipment_delivered: 'Shipment Delivered',
  shipment_exception: 'Shipment Exception',
  po_sent: 'Purchase Order Sent',
  po_confirmed: 'Purchase Order Confirmed',
  document_extracted: 'Document Extracted',
  review_due: 'Review Due',
  sla_breached: 'SLA Breached',
};

/** The fields of each trigger's event payload a condition may test (what the migrations' emit_event calls put in). */
export const PAYLOAD_FIELDS: Record<Trigger, string[]> = {
  lead_created: ['name', 'email'],
  client_registered: ['name', 'email'],
  quote_sent: ['quote_number', 'email'],
  quote_viewed: ['quote_number'],
  quote_accepted: ['quote_number', 'signer_name'],
  quote_declined: ['quote_number', 'reason'],
  invoice_created: ['invoice_number', 'quote_id'],
  invoice_sent: ['invoice_number', 'total', 'currency'],
  invoice_overdue: ['invoice_number', 'total', 'currency'],
  invoice_paid: ['invoice_number', 'total', 'currency'],
  invoice_void: ['invoice_number', 'total', 'currency'],
  message_received: ['subject', 'from'],
  conversation_resolved: ['subject'],
  // The helpdesk's breach sweep (decision 075): which deadline ('first_response' or 'resolution') and when it was due.
  sla_breached: ['target', 'due_at'],
  shipment_delivered: ['tracking_number'],
  shipment_exception: ['tracking_number'],
  po_sent: ['po_number', 'supplier_email'],
  po_confirmed: ['po_number', 'by'],
  document_extracted: ['title', 'kind'],
  review_due: ['title', 'due_on'],
  scheduled_time: [],
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

/**
 * generate_report's choices: the analytics Export Report dialog's report types
 * and formats, and its preset ranges (the contract's analytics.export_report
 * job; the table's check holds the same lists).
 */
export const REPORT_TYPES = ['sales', 'financial', 'leads', 'clients', 'compliance', 'comprehensive'] as const;
export const REPORT_FORMATS = ['pdf', 'csv', 'xlsx'] as const;
export const REPORT_RANGES = ['last_7_days', 'last_30_days', 'last_quarter', 'last_year'] as const;
export const REPORT_TYPE_OPTIONS = REPORT_TYPES.map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) }));
export const REPORT_FORMAT_OPTIONS = REPORT_FORMATS.map((value) => ({ value, label: value.toUpperCase() }));
export const REPORT_RANGE_OPTIONS = REPORT_RANGES.map((value) => ({ value, label: value.replace(/_/g, ' ').replace(/^l/, 'L') }));

export const FREQUENCIES = ['immediate', 'daily', 'weekly', 'monthly', 'custom'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  immediate: 'Immediate',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  custom: 'Custom',
};

export const OPERATORS = ['equals', 'not_equals', 'contains', 'greater_than', 'less_than', 'is_empty', 'is_not_empty'] as const;
export type Operator = (typeof OPERATORS)[number];
export const OPERATOR_LABELS: Record<Operator, string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  contains: 'contains',
  greater_than: 'is greater than',
  less_than: 'is less than',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
};

export const LEAD_STATUS_VALUES = ['new', 'qualified', 'contacted', 'lost'] as const;

export const AUTOMATION_STATUSES = ['draft', 'active', 'paused'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];
export const AUTOMATION_STATUS_LABELS: Record<AutomationStatus, string> = { draft: 'Draft', active: 'Active', paused: 'Paused' };

function options<T extends string>(values: readonly T[], labels: Record<T, string>): Option<T>[] {
  return values.map((value) => ({ value, label: labels[value] }));
}
export const TRIGGER_OPTIONS = options(TRIGGERS, TRIGGER_LABELS);
export const ACTION_OPTIONS = options(ACTIONS, ACTION_LABELS);
export const FREQUENCY_OPTIONS = options(FREQUENCIES, FREQUENCY_LABELS);
export const OPERATOR_OPTIONS = [{ value: '', label: '—' }, ...options(OPERATORS, OPERATOR_LABELS)];
export const STATUS_CHOICES = [
  { value: 'draft', label: 'Draft' },
  { value: 'active', label: 'Active' },
];

/** Condition rows offered without JavaScript. */
export const CONDITION_ROWS = 3;
const conditionFields = Object.fromEntries(
  Array.from({ length: CONDITION_ROWS }, (_, i) => [
    [`condition_field_${i}`, optionalText('Field', 50)],
    [`condition_operator_${i}`, optionalText('Operator', 20)],
    [`condition_value_${i}`, optionalText('Value', 200)],
  ]).flat(),
) as Record<string, ReturnType<typeof optionalText>>;

/** Send Email's recipient choices besides the account's users (whose value is their address). */
export const RECIPIENT_EVENT_CONTACT = 'event_contact';
export const RECIPIENT_FIXED = 'fixed';

/** No control characters: a value may reach a mail header. */
const noControl = (value: string | undefined) => !value || !/\p{Cc}/u.test(value);

const automationFields = {
    name: requiredText('Name'),
    description: requiredText('Description', 2000),
    trigger: oneOf(TRIGGERS, 'Trigger').default('quote_accepted'),
    action: oneOf(ACTIONS, 'Action').default('send_email'),
    frequency: oneOf(FREQUENCIES, 'Frequency').default('immediate'),
    status: z.enum(['draft', 'active'], { error: 'Choose Draft or Active' }).default('draft'),
    cron: optionalText('Cron expression', 100),
    template_id: optionalText('Template', 36),
    recipient: optionalText('Recipient', 320),
    recipient_address: optionalText('Fixed address', 320),
    new_status: optionalText('Status', 40),
    assignee_id: optionalText('Assignee', 36),
    task_title: optionalText('Task', 200),
    report_type: optionalText('Report type', 20),
    report_format: optionalText('Format', 10),
    report_range: optionalText('Date range', 20),
    ...conditionFields,
};

type AutomationForm = z.output<z.ZodObject<typeof automationFields>>;

/** The rules of the New Automation and edit forms, beyond each field's own. */
function checkAutomation(form: AutomationForm, ctx: z.RefinementCtx) {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (form.trigger === 'scheduled_time' && form.frequency === 'immediate') issue('frequency', 'Choose how often a scheduled automation runs');
    if (form.trigger !== 'scheduled_time' && form.frequency !== 'immediate') issue('frequency', 'An event trigger runs immediately: choose Immediate or Scheduled Time');
    if (form.frequency === 'custom' && !form.cron) issue('cron', 'Enter a cron expression');
    // A custom expression's own rules (croner) are checked on the server only
    // (schema.server.ts): croner would put the dialog's page over its script budget.
    if (form.action === 'send_email') {
      if (!form.template_id) issue('template_id', 'Choose a template');
      // The select's value: the event's contact, a user's address, or 'fixed' with the address typed below
      // (an address posted as the recipient itself is taken too; the database holds who may enter which).
      const fixed = form.recipient === RECIPIENT_FIXED;
      const to = fixed ? form.recipient_address : form.recipient;
      const where = fixed ? 'recipient_address' : 'recipient';
      if (!form.recipient) issue('recipient', 'Choose a recipient');
      else if (!to) issue(where, 'Enter the fixed address');
      else if (!noControl(to) || (to !== RECIPIENT_EVENT_CONTACT && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(to))) {
        issue(where, 'Enter an e-mail address or choose the event\'s contact');
      }
    }
    if (form.action === 'update_status' && !(LEAD_STATUS_VALUES as readonly string[]).includes(form.new_status ?? '')) issue('new_status', 'Choose a status');
    if (form.action === 'update_status' && form.trigger !== 'lead_created') issue('trigger', 'Update Status applies to Lead Created');
    if (form.action === 'assign_task') {
      if (!form.assignee_id) issue('assignee_id', 'Choose someone to assign the task to');
      if (!form.task_title) issue('task_title', 'Enter the task');
    }
    if (form.action === 'create_invoice' && form.trigger !== 'quote_accepted') issue('trigger', 'Create Invoice applies to Quote Accepted');
    if (form.action === 'generate_report') {
      if (!(REPORT_TYPES as readonly string[]).includes(form.report_type ?? '')) issue('report_type', 'Choose a report type');
      if (form.report_format && !(REPORT_FORMATS as readonly string[]).includes(form.report_format)) issue('report_format', 'Choose PDF, CSV or XLSX');
      if (form.report_range && !(REPORT_RANGES as readonly string[]).includes(form.report_range)) issue('report_range', 'Choose a date range');
    }
    const fields = PAYLOAD_FIELDS[form.trigger];
    for (let i = 0; i < CONDITION_ROWS; i++) {
      const field = form[`condition_field_${i}` as keyof typeof form] as string | undefined;
      const operator = form[`condition_operator_${i}` as keyof typeof form] as string | undefined;
      const value = form[`condition_value_${i}` as keyof typeof form] as string | undefined;
      if (!field && !operator && !value) continue;
      if (!field || !fields.includes(field)) issue(`condition_field_${i}`, fields.length ? `Choose one of: ${fields.join(', ')}` : 'This trigger has no fields to test');
      if (!operator || !(OPERATORS as readonly string[]).includes(operator)) issue(`condition_operator_${i}`, 'Choose an operator');
      if ((operator === 'greater_than' || operator === 'less_than') && !/^-?\d+(\.\d+)?$/.test(value ?? '')) issue(`condition_value_${i}`, 'Enter a number');
      if (!noControl(value)) issue(`condition_value_${i}`, 'Remove the control characters');
    }
}

export const newAutomationSchema = z.object(automationFields).superRefine(checkAutomation);
export type NewAutomation = z.output<typeof newAutomationSchema>;

/** The edit dialog of an automation's page: the same fields (its status is set by Activate and Pause). */
export const editAutomationSchema = z.object({ ...automationFields, intent: z.literal('update') }).superRefine(checkAutomation);

/** The row the form describes, for the table's checks (action_settings, conditions). */
export function automationRow(form: NewAutomation) {
  const settings =
    form.action === 'send_email'
      ? { template_id: form.template_id, recipient: form.recipient === RECIPIENT_FIXED ? form.recipient_address : form.recipient }
    : form.action === 'update_status' ? { status: form.new_status }
    : form.action === 'assign_task' ? { assignee_id: form.assignee_id, title: form.task_title }
    : form.action === 'generate_report'
      ? { report_type: form.report_type, format: form.report_format || 'pdf', date_range: form.report_range || 'last_30_days', ...(form.assignee_id ? { assignee_id: form.assignee_id } : {}) }
    : {};
  const conditions = Array.from({ length: CONDITION_ROWS }, (_, i) => ({
    field: form[`condition_field_${i}` as keyof NewAutomation] as string | undefined,
    operator: form[`condition_operator_${i}` as keyof NewAutomation] as string | undefined,
    value: (form[`condition_value_${i}` as keyof NewAutomation] as string | undefined) ?? '',
  })).filter((c) => c.field && c.operator);
  return {
    name: form.name,
    description: form.description,
    trigger_kind: form.trigger,
    frequency: form.trigger === 'scheduled_time' ? form.frequency : null,
    cron: form.frequency === 'custom' ? (form.cron ?? null) : null,
    status: form.status,
    action_kind: form.action,
    action_settings: settings,
    conditions,
  };
}

/** The record page's forms: Edit, Run now, Activate, Pause, Delete. */
export const automationActionSchema = z.discriminatedUnion('intent', [
  editAutomationSchema,
  z.object({ intent: z.literal('run_now'), run_key: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'Reload the page and try again') }),
  z.object({ intent: z.literal('activate') }),
  z.object({ intent: z.literal('pause') }),
  z.object({ intent: z.literal('delete') }),
]);

/** Runs per page of an automation's run history. */
export const RUNS_PER_PAGE = 20;
