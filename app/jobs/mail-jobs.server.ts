// The platform's own mail jobs: any feature queues 'mail.send'; the
// Integrations screen queues 'mail.test'.
import { sendAccountMail } from '~/lib/mail/send-mail.server';
import { payloadText, type JobHandler } from './job.server';

export const MAIL_JOB_TYPES: Record<string, JobHandler> = {
  // One mail, through the account's mail route (its SMTP integration, else the platform's sender).
  'mail.send': async (payload, { admin, env, job }) => {
    await sendAccountMail(admin, env, job.account_id, {
      to: payloadText(payload, 'to'),
      subject: payloadText(payload, 'subject'),
      text: payloadText(payload, 'text'),
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
        to: payloadText(payload, 'to'),
        subject: 'Test mail from OpsHub',
        text: 'This is a test mail. Mail from this account is sent through this server.',
      },
      { integrationId: payloadText(payload, 'integration_id') },
    );
  },
};

/**
 * Queues one mail for the runner's 'mail.send' under an idempotency key: a job
 * that mails as its last step and is then retried (a lost completion, a crash)
 * queues the same key again and nothing more is sent.
 */
export async function queueMail(
  admin: Parameters<JobHandler>[1]['admin'],
  accountId: string,
  key: string,
  mail: { to: string; subject: string; text: string; html?: string },
  subjectId?: string,
): Promise<void> {
  const { error } = await admin.rpc('enqueue_job', {
    p_kind: 'mail.send', p_idempotency_key: key, p_payload: mail, p_account_id: accountId, ...(subjectId ? { p_subject_id: subjectId } : {}),
  });
  if (error) throw new Error(`the mail (${key}) could not be queued: ${error.message}`);
}
