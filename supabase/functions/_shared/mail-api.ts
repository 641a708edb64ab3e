// The platform's HTTP mail API (Resend-style JSON: from, to, subject, text,
// html, attachments), shared by the server functions (Deno) and the app's
// Worker, so both send the same request (decision 022). No runtime API beyond fetch.
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  from?: string;
  /** Content in base64. */
  attachments?: { filename: string; content: string; contentType: string }[];
  /** Threading (the helpdesk's replies): Reply-To, In-Reply-To/References and our own Message-ID, each <…>. */
  replyTo?: string;
  inReplyTo?: string;
  messageId?: string;
}

export interface MailApi {
  url: string;
  key?: string;
  from: string;
}

/** A header value or address that would break the message's headers: the mail cannot be sent as it is. */
export class MailHeaderError extends Error {}

/**
 * Refuses a control character (CR and LF above all) in a header value or an
 * address: written into a message, it would start a header (a Bcc) or the body
 * of its own. Every mail path checks before sending (decision 039).
 */
export function assertHeaderSafe(header: string, value: string): void {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new MailHeaderError(`${header} contains a control character`);
}

export async function postToMailApi(api: MailApi, mail: OutgoingMail): Promise<void> {
  assertHeaderSafe('From', mail.from ?? api.from);
  assertHeaderSafe('To', mail.to);
  assertHeaderSafe('Subject', mail.subject);
  for (const a of mail.attachments ?? []) assertHeaderSafe('Attachment name', a.filename);
  for (const [name, value] of [['Reply-To', mail.replyTo], ['In-Reply-To', mail.inReplyTo], ['Message-ID', mail.messageId]] as const) {
    if (value !== undefined) assertHeaderSafe(name, value);
  }
  const response = await fetch(api.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(api.key ? { Authorization: `Bearer ${api.key}` } : {}) },
    body: JSON.stringify({
      from: mail.from ?? api.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, content_type: a.contentType })),
      reply_to: mail.replyTo,
      in_reply_to: mail.inReplyTo,
      message_id: mail.messageId,
    }),
  });
  if (!response.ok) throw new Error(`mail API answered ${response.status}`);
}
