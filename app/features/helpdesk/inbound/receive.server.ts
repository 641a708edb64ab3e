// Inbound mail into the helpdesk (decision 060): the Worker's `email` handler
// (Cloudflare Email Workers) and the signed POST /hooks/email both end in one
// call of public.receive_email with the service role. The account is the one
// whose mailbox the mail was addressed to (the envelope recipient, or the
// hook's `to`), never anything the message itself says.
import { serviceClient } from '~/jobs/runner.server';
import { readCappedBytes } from '~/lib/capped-stream';
import { MAX_MESSAGE_BYTES, MalformedMail, parseMail, type InboundAttachment, type ParsedMail } from './parse-mail';

export class UnknownMailbox extends Error {}

export interface StoredMail {
  conversation_id: string;
  message_id: string;
  duplicate: boolean;
}

export async function storeInboundMail(env: Env, to: string, mail: ParsedMail): Promise<StoredMail> {
  const admin = serviceClient(env);
  if (!admin) throw new Error('SUPABASE_SERVICE_ROLE_KEY is not set: inbound mail cannot be stored');
  const { data, error } = await admin.rpc('receive_email', {
    p_to: to,
    p_from_email: mail.fromEmail,
    p_from_name: mail.fromName ?? '',
    p_subject: mail.subject,
    p_body: mail.text,
    p_message_id: mail.messageId ?? undefined,
    p_references: mail.references,
  });
  if (error?.code === 'P0002') throw new UnknownMailbox(error.message);
  if (error?.code === '22023') throw new MalformedMail(error.message);
  if (error) throw new Error(`storing inbound mail failed: ${error.message}`);
  const stored = data as unknown as StoredMail;
  // A replay's attachments were stored with the first delivery.
  if (!stored.duplicate && mail.attachments?.length) await storeAttachments(admin, stored, mail.attachments);
  // Not passed by the receiving side: flagged when the From claims one of the account's own domains.
  if (!stored.duplicate && mail.authenticated === false) {
    const { error: flagError } = await admin.rpc('flag_unverified_sender', { p_message_id: stored.message_id });
    if (flagError) console.error(`checking the sender's domain failed: ${flagError.message}`);
  }
  return stored;
}

export const ATTACHMENTS_BUCKET = 'helpdesk';

/**
 * Each attachment into the private `helpdesk` bucket at
 * <account>/<conversation>/<uuid>/<name> (the account folder is what Storage's
 * policy reads) and a message_attachments row. The message is already stored:
 * an attachment that fails is logged and skipped, the mail is never lost for it.
 */
async function storeAttachments(admin: NonNullable<ReturnType<typeof serviceClient>>, stored: StoredMail, attachments: InboundAttachment[]) {
  const { data: conversation, error } = await admin.from('conversations').select('account_id').eq('id', stored.conversation_id).single();
  if (error) throw new Error(`reading the conversation failed: ${error.message}`);
  for (const attachment of attachments) {
    // Storage keys take a safe ASCII set only: the object's name is the file name so reduced; the row keeps the real one.
    const key = attachment.filename.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 100) || 'attachment';
    const path = `${conversation.account_id}/${stored.conversation_id}/${crypto.randomUUID()}/${key}`;
    const upload = await admin.storage
      .from(ATTACHMENTS_BUCKET)
      .upload(path, attachment.content, { contentType: attachment.mimeType, upsert: false });
    if (upload.error) {
      console.error(`an inbound attachment was not stored: ${upload.error.message}`);
      continue;
    }
    const { error: rowError } = await admin.from('message_attachments').insert({
      account_id: conversation.account_id,
      conversation_id: stored.conversation_id,
      message_id: stored.message_id,
      file_name: attachment.filename,
      mime_type: attachment.mimeType,
      size_bytes: attachment.content.byteLength,
      storage_path: path,
    });
    if (rowError) console.error(`an inbound attachment's row was not stored: ${rowError.message}`);
  }
}

/** Reads a byte stream into a binary string (one char per byte), refusing more than `limit` bytes. */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, limit = MAX_MESSAGE_BYTES): Promise<string | null> {
  const bytes = await readCappedBytes(stream, limit);
  if (bytes === null) return null;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return binary;
}

/**
 * The Worker's `email` handler: a message over 1 MB, malformed, or to an
 * unknown mailbox is rejected back to the sender (setReject), never half stored.
 */
export async function receiveEmailMessage(message: ForwardableEmailMessage, env: Env): Promise<void> {
  if (message.rawSize > MAX_MESSAGE_BYTES) {
    message.setReject('Message too large (the limit is 1 MB)');
    return;
  }
  const raw = await readCapped(message.raw);
  if (raw === null) {
    message.setReject('Message too large (the limit is 1 MB)');
    return;
  }
  try {
    await storeInboundMail(env, message.to, await parseMail(raw));
  } catch (error) {
    if (error instanceof UnknownMailbox) message.setReject('No such mailbox');
    else if (error instanceof MalformedMail) message.setReject(`Malformed message: ${error.message}`);
    else throw error;
  }
}
