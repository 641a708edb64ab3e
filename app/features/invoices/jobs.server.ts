// The invoices module's jobs (decision 029), listed by app/jobs/registry.server.ts:
//   invoice_send      a fresh public link /i/<token> and the mail to the client;
//   invoice_reminder  the overdue reminder mail (queued by the sweep, at most one per 7 days);
//   invoices.overdue  the sweep itself (a periodic job): open invoices past
//                     their due date become overdue and get a reminder queued.
// The link's token is 32 random bytes; only its SHA-256 is stored, so each
// mail carries a new link and the previous one stops working.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { sendAccountMail } from '~/lib/mail/send-mail.server';
import { invoicePdfAttachment, readInvoiceDocument } from './pdf/invoice-document.server';
import { centsToBigInt, formatCents } from '~/lib/money';
import { PermanentJobError, type JobContext, type JobHandler } from '~/jobs/job.server';
import { sellerBankLines } from '~/lib/seller';
import { signOff } from '../quotes/public/quote-mail';
import { newLinkToken } from '~/lib/link-token';

type Admin = SupabaseClient<Database>;

async function invoiceOf(admin: Admin, payload: Record<string, unknown>, ctx: JobContext) {
  const id = payload.invoice_id;
  if (typeof id !== 'string') throw new PermanentJobError('The job has no invoice_id');
  const { data, error } = await admin.from('invoices').select('*').eq('id', id).maybeSingle();
  if (error) throw new Error(`reading the invoice failed: ${error.message}`);
  // The runner acts for the platform: the invoice must be of the job's own account.
  if (!data || data.account_id !== ctx.job.account_id) throw new PermanentJobError('The invoice is gone');
  return data;
}

/**
 * Where the mail's link points: the site's own origin (SITE_URL), never an
 * address a request or a job's payload names (a member could otherwise mail a
 * client a live token on any host; decision 043).
 */
function linkBase(env: Env): string {
  const site = (env as unknown as Record<string, unknown>).SITE_URL;
  if (typeof site !== 'string' || !URL.canParse(site)) throw new PermanentJobError('No site address to link to (SITE_URL)');
  return new URL(site).origin;
}

async function mailInvoice(payload: Record<string, unknown>, ctx: JobContext, kind: 'send' | 'reminder'): Promise<void> {
  const { admin, env, job } = ctx;
  const invoice = await invoiceOf(admin, payload, ctx);
  if (invoice.status === 'void' || invoice.status === 'paid' || (kind === 'reminder' && invoice.status !== 'overdue')) return;
  const base = linkBase(env);
  const { token, hashHex } = await newLinkToken();
  const stored = await admin.from('invoices').update({ link_token_hash: hashHex }).eq('id', invoice.id);
  if (stored.error) throw new Error(`storing the link failed: ${stored.error.message}`);
  // The PDF's one read carries the account's name and the exact amounts (text, past 2^53 too) the mail states.
  const document = await readInvoiceDocument(admin, invoice.id);
  if (!document) throw new PermanentJobError(`Invoice ${invoice.id} no longer exists`);
  const from = document.seller?.name || document.account.name;
  const balance = formatCents(centsToBigInt(document.total) - centsToBigInt(document.amountPaid), document.currency);
  const link = `${base}/i/${token}`;
  const subject =
    kind === 'send'
      ? `Invoice ${invoice.invoice_number} from ${from}`
      : `Reminder: invoice ${invoice.invoice_number} from ${from} is overdue`;
  const text = [
    `Hello ${invoice.client_name},`,
    '',
    kind === 'send'
      ? `${from} has sent you invoice ${invoice.invoice_number} for ${formatCents(document.total, document.currency)}, due ${invoice.due_date}.`
      : `Invoice ${invoice.invoice_number} was due on ${invoice.due_date}; ${balance} is still to be paid.`,
    '',
    `View it here: ${link}`,
    '',
    `Balance due: ${balance}`,
    // How to pay and who from: the seller the invoice was sent with.
    ...(document.seller?.payment_terms ? ['', document.seller.payment_terms] : []),
    ...(document.seller && sellerBankLines(document.seller).length ? ['', ...sellerBankLines(document.seller)] : []),
    ...signOff(document.seller),
  ].join('\n');
  const attachments = [await invoicePdfAttachment(document)];
  await sendAccountMail(admin, env, job.account_id, { to: invoice.client_email, subject, text, attachments });
}

export const INVOICE_JOB_TYPES: Record<string, JobHandler> = {
  invoice_send: (payload, ctx) => mailInvoice(payload, ctx, 'send'),
  invoice_reminder: (payload, ctx) => mailInvoice(payload, ctx, 'reminder'),
  // The run's clock comes in the payload (the runner's `now`), so tests can move it.
  'invoices.overdue': async (payload, { admin }) => {
    const now = typeof payload.now === 'string' ? payload.now : new Date().toISOString();
    const { error } = await admin.rpc('sweep_overdue_invoices', { p_now: now });
    if (error) throw new Error(`the overdue sweep failed: ${error.message}`);
  },
};

export const INVOICE_PERIODIC_JOBS = ['invoices.overdue'];
