// The compliance module's jobs (issue 37), listed by app/jobs/registry.server.ts:
//   compliance.daily     the periodic sweep (compliance_daily): due items become
//                        Action Required with a review_due event, occurrences
//                        reach into next year, expired evidence is flagged, and
//                        each reminder is queued once as a compliance_reminder job,
//                        and audit packages whose links expired are removed;
//   compliance_reminder  the owner's mail, 7 days before the review and on the day;
//   compliance.audit_package        a large item's audit package, stored and mailed
//                                   as signed links (package.server.ts);
//   compliance.remove_evidence_file an unreviewed, deleted item's evidence file
//                                   removed from Storage (queued by the database).
import { sendAccountMail } from '~/lib/mail/send-mail.server';
import { PermanentJobError, type JobHandler } from '~/jobs/job.server';
import { buildAuditPackage, PACKAGE_BUCKET, removeEvidenceFile } from './package.server';

export function reminderMail(payload: Record<string, unknown>): { to: string; subject: string; text: string } {
  const { to, title, due_on: dueOn, kind } = payload;
  if (typeof to !== 'string' || typeof title !== 'string' || typeof dueOn !== 'string' || (kind !== 'before' && kind !== 'on_day')) {
    throw new PermanentJobError('The reminder job lacks its recipient, title, date or kind');
  }
  const when = kind === 'before' ? `is due in 7 days, on ${dueOn}` : `is due today, ${dueOn}`;
  return {
    to,
    subject: kind === 'before' ? `Review due in 7 days: ${title}` : `Review due today: ${title}`,
    text: [`Hello,`, '', `The compliance review "${title}" ${when}.`, '', 'Record the review and its evidence on the requirement\'s page in OpsHub.'].join('\n'),
  };
}

export const COMPLIANCE_JOB_TYPES: Record<string, JobHandler> = {
  // The run's clock comes in the payload (the runner's `now`), so tests can move it.
  'compliance.daily': async (payload, { admin }) => {
    const now = typeof payload.now === 'string' ? payload.now : new Date().toISOString();
    const { error } = await admin.rpc('compliance_daily', { p_today: now.slice(0, 10) });
    if (error) throw new Error(`the compliance sweep failed: ${error.message}`);
    // Audit packages whose links expired (7 days) leave the bucket a day later, through Storage so their bytes go.
    // By the database's own clock, not the run's: a test moving the run days ahead must not remove fresh packages.
    const { data: stale, error: staleError } = await admin.rpc('compliance_stale_packages');
    if (staleError) throw new Error(`the stale audit packages could not be listed: ${staleError.message}`);
    if (stale && stale.length > 0) {
      const removed = await admin.storage.from(PACKAGE_BUCKET).remove(stale);
      if (removed.error) throw new Error(`the stale audit packages could not be removed: ${removed.error.message}`);
    }
  },
  compliance_reminder: async (payload, { admin, env, job }) => {
    const mail = reminderMail(payload);
    await sendAccountMail(admin, env, job.account_id, mail);
  },
  'compliance.audit_package': buildAuditPackage,
  'compliance.remove_evidence_file': removeEvidenceFile,
};

export const COMPLIANCE_PERIODIC_JOBS = ['compliance.daily'];
