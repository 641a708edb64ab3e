// The invitation e-mail. Values are escaped for the HTML part.
export interface InvitationMail {
  to: string;
  /** Who invited them: the admin's name (or address), so the invitee knows whom to ask. */
  inviterName: string;
  accountName: string;
  role: string;
  link: string;
  expiresAt: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Longest account name a subject carries; past it the name is cut with an ellipsis. */
export const SUBJECT_NAME_MAX = 60;

/**
 * The account name as a subject may carry it: an admin chooses it freely, so
 * control characters and line breaks (header injection, a second line of
 * phishing text) go, spaces are collapsed, and it is cut to a sane length.
 */
export function subjectSafeName(name: string): string {
  const line = name.replace(/[\p{Cc}\p{Zl}\p{Zp}\p{Cf}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= SUBJECT_NAME_MAX) return line || 'OpsHub';
  return `${chars.slice(0, SUBJECT_NAME_MAX - 1).join('').trimEnd()}…`;
}

export function invitationMessage(mail: InvitationMail) {
  const expires = new Date(mail.expiresAt).toUTCString();
  const subject = `You're invited to join ${subjectSafeName(mail.accountName)}`;
  const text =
    `${mail.inviterName} has invited you to join ${mail.accountName} on OpsHub Pro as ${mail.role}.\n\n` +
    `Create your account here: ${mail.link}\n\n` +
    `This invitation expires on ${expires}.`;
  const html =
    `<p>${escapeHtml(mail.inviterName)} has invited you to join <strong>${escapeHtml(mail.accountName)}</strong> on OpsHub Pro as ${escapeHtml(mail.role)}.</p>` +
    `<p><a href="${escapeHtml(mail.link)}">Create your account</a></p>` +
    `<p>This invitation expires on ${escapeHtml(expires)}.</p>`;
  return { to: mail.to, subject, text, html };
}
