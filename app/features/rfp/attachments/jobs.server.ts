// The bid files' job (issue 38; decision 091), listed by app/jobs/registry.server.ts:
//   rfp.remove_attachment_file  a deleted bid's file removed from Storage (queued by the database when the
//                               bid's delete took its rfp_attachments rows with it).
import { PermanentJobError, type JobHandler } from '~/jobs/job.server';
import { ATTACHMENTS_BUCKET } from './store.server';

export const removeAttachmentFile: JobHandler = async (payload, { admin, job }) => {
  const path = typeof payload.path === 'string' ? payload.path : '';
  // Only a bid file of the job's own account: a payload naming anything else is refused, not removed.
  if (!job.account_id || !path.startsWith(`${job.account_id}/rfp/`)) throw new PermanentJobError('The file is not one of the account\'s bid files');
  const { error } = await admin.storage.from(ATTACHMENTS_BUCKET).remove([path]);
  if (error) throw new Error(`the bid file could not be removed: ${error.message}`);
};

export const RFP_ATTACHMENT_JOB_TYPES: Record<string, JobHandler> = {
  'rfp.remove_attachment_file': removeAttachmentFile,
};
