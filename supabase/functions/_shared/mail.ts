// The invitation e-mail. Values are escaped for the HTML part.
export interface InvitationMail {
  to: string;
  accountName: string;
  role: string;
  link: string;
  expiresAt: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function invitationMessage(mail: InvitationMail) {
  const expires = new Date(mail.expiresAt).toUTCString();
  const subject = `You're invited to join ${mail.accountName}`;
  const text =
    `You have been invited to join ${mail.accountName} as ${mail.role}.\n\n` +
    `Create your account here: ${mail.link}\n\n` +
    `This invitation expires on ${expires}.`;
  const html =
    `<p>You have been invited to join <strong>${escapeHtml(mail.accountName)}</strong> as ${escapeHtml(mail.role)}.</p>` +
    `<p><a href="${escapeHtml(mail.link)}">Create your account</a></p>` +
    `<p>This invitation expires on ${escapeHtml(expires)}.</p>`;
  return { to: mail.to, subject, text, html };
}
