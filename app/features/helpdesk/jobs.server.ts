// The helpdesk's jobs (decision 060), listed by app/jobs/registry.server.ts:
//   helpdesk.send_reply  a reply written on a conversation, mailed to its
//                        contact through the account's mail route, threaded
//                        (In-Reply-To the last inbound Message-ID, Reply-To the
//                        conversation's own address when INBOUND_MAIL_DOMAIN is
//                        set); the message's delivery status follows.
// Notes are never queued (reply_to_conversation), so they never leave.
import { sendAccountMail } from '~/lib/mail/send-mail.server';
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';

function inboundDomain(env: Env): string | null {
  const value = (env as unknown as Record<string, unknown>).INBOUND_MAIL_DOMAIN;
  return typeof value === 'string' && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(value) ? value.toLowerCase() : null;
}

const sendReply: JobHandler = async (payload, { admin, env, job }) => {
  const messageId = payloadText(payload, 'message_id');
  const { data: message, error } = await admin
    .from('messages')
    .select('id, account_id, body, direction, delivery_status, conversation:conversations(id, subject, reply_token, contact:contacts(name, email))')
    .eq('id', messageId)
    .maybeSingle();
  if (error) throw new Error(`reading the reply failed: ${error.message}`);
  // The runner acts for the platform: the message must be of the job's own account, and an outbound one.
  if (!message || message.account_id !== job.account_id || message.direction !== 'outbound') throw new PermanentJobError('The reply is gone');
  if (message.delivery_status === 'sent' || message.delivery_status === 'delivered') return;
  const conversation = message.conversation as unknown as { id: string; subject: string; reply_token: string; contact: { name: string; email: string } };

  const { data: last } = await admin
    .from('messages')
    .select('external_id')
    .eq('conversation_id', conversation.id)
    .eq('direction', 'inbound')
    .not('external_id', 'is', null)
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  const { data: mailbox } = await admin.rpc('inbound_mailbox_of', { p_account_id: message.account_id });
  const domain = inboundDomain(env);
  const ownId = `<reply-${message.id}@${domain ?? 'opshub.invalid'}>`;
  // A conversation started here (Compose, decision 076) has nothing to answer: its first mail keeps the subject as written.
  const subject = !last || /^re:/i.test(conversation.subject) ? conversation.subject : `Re: ${conversation.subject}`;
  try {
    await sendAccountMail(admin, env, message.account_id, {
      to: conversation.contact.email,
      subject,
      text: message.body,
      messageId: ownId,
      inReplyTo: last?.external_id ?? undefined,
      replyTo: domain && typeof mailbox === 'string' ? `${mailbox}+${conversation.reply_token}@${domain}` : undefined,
    });
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    await admin.from('messages').update({ delivery_status: 'failed', delivery_error: reason.slice(0, 2000) }).eq('id', message.id);
    throw caught;
  }
  const stored = await admin
    .from('messages')
    .update({ delivery_status: 'sent', delivery_error: null, sent_at: new Date().toISOString(), external_id: ownId })
    .eq('id', message.id);
  if (stored.error) throw new Error(`recording the delivery failed: ${stored.error.message}`);
};

export const HELPDESK_JOB_TYPES: Record<string, JobHandler> = {
  'helpdesk.send_reply': sendReply,
};
