// The job types the runner knows (decision 021). Each feature exports its
// kinds (a name `<module>.<verb>` or the kind its trigger queues, and what to
// do with a claimed job's payload) and this file only lists them. A handler
// throws to have the job retried with backoff, or throws PermanentJobError
// (job.server.ts) when trying again cannot help.
import type { JobHandler } from './job.server';
import { MAIL_JOB_TYPES } from './mail-jobs.server';
import { DOCUMENT_JOB_TYPES } from '~/features/documents/extraction/job.server';
import { QUOTE_JOB_TYPES, QUOTE_PERIODIC_JOBS } from '~/features/quotes/public/quote-jobs.server';
import { INVOICE_JOB_TYPES, INVOICE_PERIODIC_JOBS } from '~/features/invoices/jobs.server';
import { HELPDESK_JOB_TYPES } from '~/features/helpdesk/jobs.server';
import { COMPLIANCE_JOB_TYPES, COMPLIANCE_PERIODIC_JOBS } from '~/features/compliance/jobs.server';
import { AUTOMATION_JOB_TYPES, AUTOMATION_PERIODIC_JOBS } from '~/features/automations/jobs.server';
import { PURCHASE_ORDER_JOB_TYPES } from '~/features/purchase-orders/jobs.server';
import { SHIPMENT_JOB_TYPES } from '~/features/shipments/jobs.server';
import { ANALYTICS_JOB_TYPES } from '~/features/analytics/export/job.server';
import { HELPDESK_SLA_JOB_TYPES, HELPDESK_SLA_PERIODIC_JOBS } from '~/features/helpdesk/sla/jobs.server';
import { HELPDESK_CHANNEL_JOB_TYPES } from '~/features/helpdesk/channels/sms-jobs.server';
import { RFP_JOB_TYPES, RFP_PERIODIC_JOBS } from '~/features/rfp/feeds/job.server';
import { RFP_ATTACHMENT_JOB_TYPES } from '~/features/rfp/attachments/jobs.server';

export const JOB_TYPES: Record<string, JobHandler> = {
  ...MAIL_JOB_TYPES,
  ...DOCUMENT_JOB_TYPES,
  ...QUOTE_JOB_TYPES,
  ...INVOICE_JOB_TYPES,
  ...HELPDESK_JOB_TYPES,
  ...COMPLIANCE_JOB_TYPES,
  ...AUTOMATION_JOB_TYPES,
  ...PURCHASE_ORDER_JOB_TYPES,
  ...SHIPMENT_JOB_TYPES,
  ...ANALYTICS_JOB_TYPES,
  ...HELPDESK_SLA_JOB_TYPES,
  ...HELPDESK_CHANNEL_JOB_TYPES,
  ...RFP_JOB_TYPES,
  ...RFP_ATTACHMENT_JOB_TYPES,
};

/**
 * Work queued by the runner itself on every run, once per minute (the
 * idempotency key carries the minute), e.g. a sweep that expires quotes.
 */
export const PERIODIC_JOBS: string[] = [
  ...QUOTE_PERIODIC_JOBS,
  ...INVOICE_PERIODIC_JOBS,
  ...COMPLIANCE_PERIODIC_JOBS,
  ...AUTOMATION_PERIODIC_JOBS,
  ...HELPDESK_SLA_PERIODIC_JOBS,
  ...RFP_PERIODIC_JOBS,
];
