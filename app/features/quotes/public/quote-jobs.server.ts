// The jobs of a quote's public half (listed by app/jobs/registry.server.ts):
//   quote_send      mails the contact a fresh link and the quote's PDF;
//   quote_accepted  queues one mail per active admin of the account, and the signer's copy;
//   quote_signed_copy  mails the signer the signed PDF with its certificate;
//   quote_declined  queues one mail with the reason to the quote's owner and each active admin;
//   quotes.expire   the periodic sweep: open quotes past expiry become expired.
import type { SupabaseClient } from '@supabase/supabase-js';
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import type { Database } from '~/lib/database.types';
import { sendAccountMail, type OutgoingMail } from '~/lib/mail/send-mail.server';
import { quotePdfAttachment, readQuoteDocument } from '../pdf/quote-document.server';
import { quoteAcceptedMail, quoteDeclinedMail, quoteLinkMail, quoteLinkUrl, quoteSignedCopyMail } from './quote-mail';
import type { Seller } from '~/lib/seller';
import { queueMail } from '~/jobs/mail-jobs.server';

type Admin = SupabaseClient<Database>;

interface QuoteForMail {
  id: string;
  account_id: string;
  quote_number: string | null;
  status: string;
  total: number;
  currency: string;
  expires_at: string | null;
  signer_name: string | null;
  signer_email: string | null;
  decline_reason: string | null;
  created_by: string | null;
  contact: { email: string | null; name: string | null } | null;
  account: { name: string } | null;
  seller: Seller | null;
}

async function readQuote(admin: Admin, id: string): Promise<QuoteForMail> {
  const { data, error } = await admin
    .from('quotes')
    .select(
      'id, account_id, quote_number, status, total, currency, expires_at, signer_name, signer_email, decline_reason, created_by, seller, contact:contacts(email, name), account:accounts(name)',
    )
    .eq('id', id)
    .maybeSingle();
  if (error) throw new Error(`reading quote ${id} failed: ${error.message}`);
  if (!data) throw new PermanentJobError(`Quote ${id} no longer exists`);
  return data as unknown as QuoteForMail;
}

/** The quote's PDF, attached to its mail (read with the runner's service role). */
export async function quoteSendAttachments(admin: Admin, quote: { id: string }): Promise<NonNullable<OutgoingMail['attachments']>> {
  const document = await readQuoteDocument(admin, quote.id);
  return document ? [await quotePdfAttachment(document)] : [];
}

const quoteSend: JobHandler = async (payload, { admin, env, job }) => {
  const quoteId = payloadText(payload, 'quote_id');
  const quote = await readQuote(admin, quoteId);
  // Signed, declined or expired since it was queued: there is nothing to send any more.
  if (quote.status !== 'sent' && quote.status !== 'viewed') return;
  if (job.account_id && job.account_id !== quote.account_id) throw new PermanentJobError('The job and the quote belong to different accounts');
  try {
    const to = quote.contact?.email;
    if (!to) throw new PermanentJobError('The quote has no contact with an email address');
    if (!env.SITE_URL) throw new PermanentJobError('SITE_URL is not set: the quote\'s link cannot be made');
    // A fresh link each attempt: the token is never stored, so a retry cannot reuse the last one.
    const { data: token, error } = await admin.rpc('issue_quote_link', { p_quote_id: quote.id });
    if (error || !token) throw new Error(`issuing the quote's link failed: ${error?.message ?? 'no token'}`);
    const mail = quoteLinkMail(
      {
        accountName: quote.seller?.name || quote.account?.name || '',
        quoteNumber: quote.quote_number ?? '',
        total: quote.total,
        currency: quote.currency,
        expiresAt: quote.expires_at,
        seller: quote.seller,
      },
      quoteLinkUrl(env.SITE_URL, token),
    );
    const attachments = await quoteSendAttachments(admin, quote);
    await sendAccountMail(admin, env, quote.account_id, { to, ...mail, ...(attachments.length ? { attachments } : {}) });
  } catch (failure) {
    const message = failure instanceof Error ? failure.message || failure.name : String(failure);
    await recordDelivery(admin, quote.id, message);
    throw failure;
  }
  await recordDelivery(admin, quote.id, null);
};

async function recordDelivery(admin: Admin, quoteId: string, error: string | null): Promise<void> {
  const recorded = await admin.rpc('record_quote_delivery', { p_quote_id: quoteId, p_error: error ?? undefined });
  if (recorded.error) console.error(`recording the delivery of quote ${quoteId} failed: ${recorded.error.message}`);
}

/** One mail.send job per active admin: each is retried on its own, and none is sent twice. */
const quoteAccepted: JobHandler = async (payload, { admin }) => {
  const quoteId = payloadText(payload, 'quote_id');
  const quote = await readQuote(admin, quoteId);
  if (quote.status !== 'signed' || !quote.signer_name) return;
  const { data: admins, error } = await admin
    .from('users')
    .select('id, email')
    .eq('account_id', quote.account_id)
    .eq('role', 'admin')
    .eq('is_active', true);
  if (error) throw new Error(`reading the account's admins failed: ${error.message}`);
  const mail = quoteAcceptedMail({
    quoteNumber: quote.quote_number ?? '',
    signerName: quote.signer_name,
    total: quote.total,
    currency: quote.currency,
  });
  for (const person of admins ?? []) {
    await queueMail(admin, quote.account_id, `quote_accepted:${quote.id}:${person.id}`, { to: person.email, ...mail }, quote.id);
  }
  // The signer's copy is a job of its own (it renders the PDF): keyed by the quote, it is sent once.
  const copy = await admin.rpc('enqueue_job', {
    p_kind: 'quote_signed_copy',
    p_idempotency_key: `quote_signed_copy:${quote.id}`,
    p_account_id: quote.account_id,
    p_subject_id: quote.id,
    p_payload: { quote_id: quote.id },
  });
  if (copy.error) throw new Error(`queuing the signer's copy failed: ${copy.error.message}`);
};

/** The signer's copy: the signed PDF (the snapshot they signed, with its certificate page) to the address they signed with. */
const quoteSignedCopy: JobHandler = async (payload, { admin, env, job }) => {
  const quoteId = payloadText(payload, 'quote_id');
  const quote = await readQuote(admin, quoteId);
  if (job.account_id && job.account_id !== quote.account_id) throw new PermanentJobError('The job and the quote belong to different accounts');
  if (quote.status !== 'signed' || !quote.signer_email) return;
  const document = await readQuoteDocument(admin, quote.id);
  if (!document?.signature) throw new PermanentJobError(`Quote ${quote.id} has no signed document`);
  const mail = quoteSignedCopyMail({
    accountName: quote.seller?.name || quote.account?.name || '',
    quoteNumber: quote.quote_number ?? '',
    signerName: quote.signer_name ?? quote.signer_email,
  });
  await sendAccountMail(admin, env, quote.account_id, { to: quote.signer_email, ...mail, attachments: [await quotePdfAttachment(document)] });
};

/** One mail.send per person told (the quote's owner, if still active, and each active admin): each retried alone, none sent twice. */
const quoteDeclined: JobHandler = async (payload, { admin }) => {
  const quoteId = payloadText(payload, 'quote_id');
  const quote = await readQuote(admin, quoteId);
  if (quote.status !== 'declined') return;
  const { data: people, error } = await admin
    .from('users')
    .select('id, email, role')
    .eq('account_id', quote.account_id)
    .eq('is_active', true)
    .or(quote.created_by ? `role.eq.admin,id.eq.${quote.created_by}` : 'role.eq.admin');
  if (error) throw new Error(`reading who to tell failed: ${error.message}`);
  const mail = quoteDeclinedMail({
    quoteNumber: quote.quote_number ?? '',
    clientName: quote.contact?.name || quote.contact?.email || 'the client',
    reason: quote.decline_reason,
  });
  for (const person of people ?? []) {
    await queueMail(admin, quote.account_id, `quote_declined:${quote.id}:${person.id}`, { to: person.email, ...mail }, quote.id);
  }
};

/** The periodic sweep: one statement in the database (expire_quotes). */
const expireQuotes: JobHandler = async (_payload, { admin }) => {
  const { error } = await admin.rpc('expire_quotes');
  if (error) throw new Error(`expiring quotes failed: ${error.message}`);
};

/** The quote jobs, by the kind their trigger or RPC queues. */
export const QUOTE_JOB_TYPES: Record<string, JobHandler> = {
  // Send (the quote's page): the contact's mail with a fresh /q/<token> link.
  quote_send: quoteSend,
  // Accept and sign (the public page): 'Quote Q-… was accepted by {name}' to each active admin.
  quote_accepted: quoteAccepted,
  // After signing: the signer's copy of the signed PDF with its certificate.
  quote_signed_copy: quoteSignedCopy,
  // Declined on the public page: the reason to the quote's owner and the admins.
  quote_declined: quoteDeclined,
  // The expiry sweep, queued by the runner every minute.
  'quotes.expire': expireQuotes,
};

export const QUOTE_PERIODIC_JOBS = ['quotes.expire'];
