// The helpdesk's SLA and CSAT jobs (decision 075), listed by app/jobs/registry.server.ts:
//   helpdesk.sla_sweep         periodic: helpdesk_sla_sweep records each deadline passed once
//                              (sla_breaches' key), emits sla_breached and queues one
//                              helpdesk.sla_breach_mail per breach;
//   helpdesk.sla_breach_mail   fans a breach out to one helpdesk.sla_breach_notice per
//                              recipient (the assignee and the admins), each keyed, so a
//                              retry never mails anyone twice;
//   helpdesk.sla_breach_notice the mail itself;
//   helpdesk.csat_request      on resolve (its trigger's key: once per conversation): a fresh
//                              /csat/<token> link, the request marked sent and its mail
//                              queued in one transaction (queue_csat_mail): one mail, ever.
import { sendAccountMail } from '~/lib/mail/send-mail.server';
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import { newToken } from '~/lib/link-token';

const TARGET_TEXT: Record<string, string> = { first_response: 'first response', resolution: 'resolution', next_response: 'next response' };

const sweep: JobHandler = async (payload, { admin }) => {
  const now = typeof payload.now === 'string' ? payload.now : new Date().toISOString();
  const { error } = await admin.rpc('helpdesk_sla_sweep', { p_now: now });
  if (error) throw new Error(`the SLA sweep failed: ${error.message}`);
};

const breachMail: JobHandler = async (payload, { admin, job }) => {
  const conversationId = payloadText(payload, 'conversation_id');
  const target = payloadText(payload, 'target');
  const { data, error } = await admin.rpc('sla_breach_recipients', { p_conversation_id: conversationId });
  if (error) throw new Error(`reading the breach's recipients failed: ${error.message}`);
  for (const { email, subject } of (data ?? []) as { email: string; subject: string }[]) {
    const queued = await admin.rpc('enqueue_job', {
      p_kind: 'helpdesk.sla_breach_notice',
      p_idempotency_key: `helpdesk.sla_breach_notice:${conversationId}:${target}:${email}`,
      p_payload: { conversation_id: conversationId, target, to: email, subject, due_at: typeof payload.due_at === 'string' ? payload.due_at : null },
      p_account_id: job.account_id ?? undefined,
      p_subject_id: conversationId,
    });
    if (queued.error) throw new Error(`queuing a breach notice failed: ${queued.error.message}`);
  }
};

/** The breach notice's mail: what was missed, on which conversation, and where to open it. */
export function breachNotice(payload: Record<string, unknown>, siteUrl: string | undefined) {
  const { to, subject, target, conversation_id: id } = payload;
  if (typeof to !== 'string' || typeof target !== 'string' || typeof id !== 'string') {
    throw new PermanentJobError('The breach notice lacks its recipient, target or conversation');
  }
  const title = typeof subject === 'string' && subject ? subject : '(no subject)';
  const link = siteUrl ? `${siteUrl.replace(/\/$/, '')}/messages/${id}` : `/messages/${id}`;
  return {
    to,
    subject: `SLA breached: ${TARGET_TEXT[target] ?? target} on "${title.slice(0, 120)}"`,
    text: ['Hello,', '', `The ${TARGET_TEXT[target] ?? target} deadline of the conversation "${title}" has passed.`, '', `Open it: ${link}`].join('\n'),
  };
}

const breachNoticeJob: JobHandler = async (payload, { admin, env, job }) => {
  await sendAccountMail(admin, env, job.account_id, breachNotice(payload, env.SITE_URL));
};

/**
 * The CSAT mail: a link per score (1 to 5) to the rating page with that score
 * chosen; the page's button keeps it. Opening a link changes nothing: mail
 * scanners open links too.
 */
export function csatMail(to: string, name: string, subject: string, accountName: string, url: string) {
  const scores = [5, 4, 3, 2, 1].map((score) => `  ${score} ${SCORE_WORDS[score]}: ${url}?score=${score}`);
  return {
    to,
    subject: `How did we do? ${subject.slice(0, 120)}`,
    text: [
      `Hello ${name},`,
      '',
      `Your request "${subject}" to ${accountName} is resolved. How satisfied are you with our help?`,
      '',
      ...scores,
      '',
      'Thank you.',
    ].join('\n'),
  };
}

const SCORE_WORDS: Record<number, string> = { 5: 'Very satisfied', 4: 'Satisfied', 3: 'Neutral', 2: 'Dissatisfied', 1: 'Very dissatisfied' };

const csatRequest: JobHandler = async (payload, { admin, env, job }) => {
  const conversationId = payloadText(payload, 'conversation_id');
  if (!env.SITE_URL) throw new PermanentJobError('SITE_URL is not set: the CSAT link cannot be made');
  const { data: conversation, error } = await admin
    .from('conversations')
    .select('id, account_id, subject, channel, merged_into_id, contact:contacts(name, email), account:accounts(name)')
    .eq('id', conversationId)
    .maybeSingle();
  if (error) throw new Error(`reading the conversation failed: ${error.message}`);
  if (!conversation || conversation.account_id !== job.account_id) throw new PermanentJobError('The conversation is gone');
  if (conversation.channel !== 'email' || conversation.merged_into_id) return;
  const contact = conversation.contact as unknown as { name: string; email: string } | null;
  if (!contact?.email) return;
  // The token's hash, the request marked sent and the mail queued commit
  // together: false when the link already went out (or was answered).
  const token = newToken();
  const account = conversation.account as unknown as { name: string } | null;
  const url = `${env.SITE_URL.replace(/\/$/, '')}/csat/${token}`;
  const mail = csatMail(contact.email, contact.name, conversation.subject || '(no subject)', account?.name ?? 'us', url);
  const { error: queueError } = await admin.rpc('queue_csat_mail', { p_conversation_id: conversationId, p_token: token, p_mail: mail });
  if (queueError) throw new Error(`queueing the CSAT mail failed: ${queueError.message}`);
};

export const HELPDESK_SLA_JOB_TYPES: Record<string, JobHandler> = {
  'helpdesk.sla_sweep': sweep,
  'helpdesk.sla_breach_mail': breachMail,
  'helpdesk.sla_breach_notice': breachNoticeJob,
  'helpdesk.csat_request': csatRequest,
};

export const HELPDESK_SLA_PERIODIC_JOBS = ['helpdesk.sla_sweep'];
