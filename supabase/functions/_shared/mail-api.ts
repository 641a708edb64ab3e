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
}

export interface MailApi {
  url: string;
  key?: string;
  from: string;
}

export async function postToMailApi(api: MailApi, mail: OutgoingMail): Promise<void> {
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
    }),
  });
  if (!response.ok) throw new Error(`mail API answered ${response.status}`);
}
