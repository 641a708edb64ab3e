// Sign-up is confirmed through the link mailed to the address (kept in the
// local backend's outbox): every layer's sign-up helper reads it from here.
interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Mails sent by the local backend at `backendUrl` (GET /_outbox). */
export async function readOutbox(backendUrl: string): Promise<Mail[]> {
  const body = (await (await fetch(`${backendUrl}/_outbox`)).json()) as Mail[] | { messages: Mail[] };
  return Array.isArray(body) ? body : body.messages;
}

/** The link of the last sign-up confirmation mailed to `email`: the app's /auth/confirm?token_hash=... */
export async function confirmationLinkFor(backendUrl: string, email: string): Promise<URL> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const mails = await readOutbox(backendUrl);
    const text = mails.filter((mail) => mail.to === email && /confirm/i.test(mail.subject)).at(-1)?.text;
    const link = text?.match(/https?:\/\/\S+\/auth\/confirm\?\S+/)?.[0];
    if (link) return new URL(link);
    if (Date.now() > deadline) throw new Error(`no confirmation mail for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The token hash the confirmation link carries, for `auth.verifyOtp({ token_hash, type: 'email' })`. */
export async function confirmationTokenHashFor(backendUrl: string, email: string): Promise<string> {
  const hash = (await confirmationLinkFor(backendUrl, email)).searchParams.get('token_hash');
  if (!hash) throw new Error(`the confirmation mail for ${email} has no token_hash`);
  return hash;
}
