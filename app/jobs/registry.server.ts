// The job types the runner knows (decision 021). A module adds its kind here:
// a name (`<module>.<verb>`, as queued by its trigger or RPC) and what to do
// with a claimed job's payload. A handler throws to have the job retried with
// backoff, or throws PermanentJobError when trying again cannot help.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { extractDocumentJob } from '~/features/documents/extraction/job.server';
import { expireQuotesJob, quoteAcceptedJob, quoteDeclinedJob, quoteSendJob, quoteSignedCopyJob } from '~/features/quotes/public/quote-jobs.server';
import { sendAccountMail } from '~/lib/mail/send-mail.server';
import { INVOICE_JOB_TYPES, INVOICE_PERIODIC_JOBS } from '~/features/invoices/jobs.server';

export interface JobContext {
  /** The service role: the runner acts for the platform, so a handler checks what it reads. */
  admin: SupabaseClient<Database>;
  env: Env;
  job: { id: string; kind: string; account_id: string | null; subject_id: string | null; attempts: number };
}

export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void>;

/** An error retrying will not fix (the record is gone, an address is missing): the job fails at once. */
export class PermanentJobError extends Error {}

const text = (payload: Record<string, unknown>, key: string): string => {
  const value = payload[key];
  if (typeof value !== 'string' || value === '') throw new PermanentJobError(`The job has no ${key}`);
  return value;
};

export const JOB_TYPES: Record<string, JobHandler> = {
  ...INVOICE_JOB_TYPES,
  // One mail, through the account's mail route (its SMTP integration, else the platform's sender).
  'mail.send': async (payload, { admin, env, job }) => {
    await sendAccountMail(admin, env, job.account_id, {
      to: text(payload, 'to'),
      subject: text(payload, 'subject'),
      text: text(payload, 'text'),
      html: typeof payload.html === 'string' ? payload.html : undefined,
    });
  },
  // Send test mail (the Integrations screen): through exactly the integration named.
  'mail.test': async (payload, { admin, env, job }) => {
    await sendAccountMail(
      admin,
      env,
      job.account_id,
      {
        to: text(payload, 'to'),
        subject: 'Test mail from OpsHub',
        text: 'This is a test mail. Mail from this account is sent through this server.',
      },
      { integrationId: text(payload, 'integration_id') },
    );
  },
  // A document's text and fields (doc2data), queued by the documents table on upload and on pasted text.
  // A file too complex to read fails once: the document says so, and the job is not tried again.
  'documents.extract': async (payload, { admin, job }) => {
    const outcome = await extractDocumentJob(admin, text(payload, 'document_id'), job);
    if (outcome === 'too_complex') throw new PermanentJobError('The document is too complex to read');
  },
  // Send (the quote's page): the contact's mail with a fresh /q/<token> link.
  quote_send: quoteSendJob(PermanentJobError),
  // Accept and sign (the public page): 'Quote Q-… was accepted by {name}' to each active admin.
  quote_accepted: quoteAcceptedJob(PermanentJobError),
  // After signing: the signer's copy of the signed PDF with its certificate.
  quote_signed_copy: quoteSignedCopyJob(PermanentJobError),
  // Declined on the public page: the reason to the quote's owner and the admins.
  quote_declined: quoteDeclinedJob(PermanentJobError),
  // The expiry sweep, queued by the runner every minute.
  'quotes.expire': expireQuotesJob,
};

/**
 * Work queued by the runner itself on every run, once per minute (the
 * idempotency key carries the minute), e.g. a sweep that expires quotes.
 */
export const PERIODIC_JOBS: string[] = ['quotes.expire', ...INVOICE_PERIODIC_JOBS];
