// The helpdesk channels' job (decision 076), listed by app/jobs/registry.server.ts:
//   helpdesk.send_sms  an outbound SMS or WhatsApp message (queued by the
//                      messages trigger when the account has an 'sms'
//                      integration), sent by sms-send.ts.
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import { sendSmsMessage, SmsFailed } from './sms-send';

const sendSms: JobHandler = async (payload, { admin, env, job }) => {
  if (!job.account_id) throw new PermanentJobError('The job has no account');
  try {
    await sendSmsMessage(admin as never, env as unknown as Record<string, string | undefined>, job.account_id, payloadText(payload, 'message_id'));
  } catch (caught) {
    if (caught instanceof SmsFailed) throw new PermanentJobError(caught.message);
    throw caught;
  }
};

export const HELPDESK_CHANNEL_JOB_TYPES: Record<string, JobHandler> = {
  'helpdesk.send_sms': sendSms,
};
