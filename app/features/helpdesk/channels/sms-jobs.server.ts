// The helpdesk channels' job (decision 076), listed by app/jobs/registry.server.ts:
//   helpdesk.send_sms  an outbound SMS or WhatsApp message (queued by the
//                      messages trigger when the account has an 'sms'
//                      integration), sent by sms-send.ts.
//   helpdesk.fetch_media an inbound message's media item copied into Storage
//                        (queued by receive_sms, one per item, at most 3
//                        attempts), by media-fetch.ts (decision 089).
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import { fetchInboundMedia, MediaFailed } from './media-fetch';
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

// Queued with at most 3 attempts (receive_sms): the third marks the media failed rather than leave it pending.
const MEDIA_ATTEMPTS = 3;

const fetchMedia: JobHandler = async (payload, { admin, env, job }) => {
  if (!job.account_id) throw new PermanentJobError('The job has no account');
  try {
    await fetchInboundMedia(admin as never, env as unknown as Record<string, string | undefined>, job.account_id,
      payloadText(payload, 'attachment_id'), job.attempts >= MEDIA_ATTEMPTS);
  } catch (caught) {
    if (caught instanceof MediaFailed) throw new PermanentJobError(caught.message);
    throw caught;
  }
};

export const HELPDESK_CHANNEL_JOB_TYPES: Record<string, JobHandler> = {
  'helpdesk.send_sms': sendSms,
  'helpdesk.fetch_media': fetchMedia,
};
