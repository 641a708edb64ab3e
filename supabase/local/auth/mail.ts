// The mails GoTrue sends (with its default templates), kept in the outbox.
import { createHash, randomBytes } from 'node:crypto';
import type { BackendContext } from '../context.ts';
import { htmlToText, type MailTemplate, renderTemplate, type TemplateValues } from './templates.ts';

export type VerificationType = 'signup' | 'email_change' | 'recovery' | 'magiclink';

/**
 * GoTrue's token hash (sha224 of e-mail + one-time secret): stored on the user
 * and carried by the link, so the link alone identifies what it confirms.
 */
export function newTokenHash(email: string): string {
  return createHash('sha224')
    .update(email + randomBytes(16).toString('hex'))
    .digest('hex');
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * GoTrue only redirects to the site URL or allow-listed URLs; locally that is
 * the site's and this backend's origins and any loopback address.
 */
export function resolveRedirect(ctx: BackendContext, requested: string | null | undefined): string {
  if (!requested) return ctx.siteUrl;
  try {
    const target = new URL(requested);
    const allowed = [ctx.siteUrl, ctx.url].map((url) => new URL(url).origin);
    if (allowed.includes(target.origin) || LOOPBACK_HOSTS.has(target.hostname)) return target.toString();
  } catch {
    // not a URL: fall back to the site
  }
  return ctx.siteUrl;
}

export function verifyLink(ctx: BackendContext, token: string, type: VerificationType, redirectTo: string): string {
  const query = new URLSearchParams({ token, type, redirect_to: redirectTo });
  return `${ctx.url.replace(/\/+$/, '')}/auth/v1/verify?${query}`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A mail from one of the project's templates (supabase/config.toml), filled in as GoTrue does. */
async function sendFromTemplate(ctx: BackendContext, to: string, template: MailTemplate, values: TemplateValues): Promise<void> {
  const html = renderTemplate(template.html, values);
  await ctx.outbox.send({ to, subject: template.subject, text: htmlToText(html), html, sentAt: new Date().toISOString() });
}

/** The parts of a verify link a template may use instead of the link itself. */
function linkValues(ctx: BackendContext, link: string): Pick<TemplateValues, 'SiteURL' | 'TokenHash' | 'ConfirmationURL' | 'RedirectTo'> {
  const params = new URL(link).searchParams;
  return {
    SiteURL: ctx.siteUrl.replace(/\/+$/, ''),
    TokenHash: params.get('token') ?? '',
    ConfirmationURL: link,
    RedirectTo: params.get('redirect_to') ?? ctx.siteUrl,
  };
}

/** The sign-up mail: the project's template when it has one, else GoTrue's default. */
export async function sendConfirmationMail(
  ctx: BackendContext,
  to: string,
  link: { token: string; redirectTo: string },
): Promise<void> {
  const confirmationUrl = verifyLink(ctx, link.token, 'signup', link.redirectTo);
  if (ctx.confirmationTemplate) {
    await sendFromTemplate(ctx, to, ctx.confirmationTemplate, { ...linkValues(ctx, confirmationUrl), Email: to });
    return;
  }
  await ctx.outbox.send({
    to,
    subject: 'Confirm Your Email',
    text: `Confirm your email\n\nFollow this link to confirm your email:\n${confirmationUrl}\n`,
    html: `<h2>Confirm your email</h2><p>Follow this link to confirm your email:</p><p><a href="${escapeHtml(confirmationUrl)}">Confirm your email address</a></p>`,
    sentAt: new Date().toISOString(),
  });
}

/** Mailed to `recipient`: the new address, or (secure e-mail change) the current one. */
export async function sendEmailChangeMail(
  ctx: BackendContext,
  from: string,
  to: string,
  link: string,
  recipient = to,
): Promise<void> {
  if (ctx.emailChangeTemplate) {
    await sendFromTemplate(ctx, recipient, ctx.emailChangeTemplate, { ...linkValues(ctx, link), Email: from, NewEmail: to });
    return;
  }
  await ctx.outbox.send({
    to: recipient,
    subject: 'Confirm Email Change',
    text: `Confirm email address change\n\nFollow this link to confirm the update of your email address from ${from} to ${to}:\n${link}\n`,
    html: `<h2>Confirm email address change</h2><p>Follow this link to confirm the update of your email address from ${escapeHtml(from)} to ${escapeHtml(to)}:</p><p><a href="${escapeHtml(link)}">Change email address</a></p>`,
    sentAt: new Date().toISOString(),
  });
}

export async function sendMagicLinkMail(ctx: BackendContext, to: string, link: string): Promise<void> {
  await ctx.outbox.send({
    to,
    subject: 'Your Magic Link',
    text: `Magic Link\n\nFollow this link to login:\n${link}\n`,
    html: `<h2>Magic Link</h2><p>Follow this link to login:</p><p><a href="${escapeHtml(link)}">Log In</a></p>`,
    sentAt: new Date().toISOString(),
  });
}

export async function sendRecoveryMail(ctx: BackendContext, to: string, link: string): Promise<void> {
  if (ctx.recoveryTemplate) {
    await sendFromTemplate(ctx, to, ctx.recoveryTemplate, { ...linkValues(ctx, link), Email: to });
    return;
  }
  await ctx.outbox.send({
    to,
    subject: 'Reset Your Password',
    text: `Reset Password\n\nFollow this link to reset the password for your user:\n${link}\n`,
    html: `<h2>Reset Password</h2><p>Follow this link to reset the password for your user:</p><p><a href="${escapeHtml(link)}">Reset Password</a></p>`,
    sentAt: new Date().toISOString(),
  });
}
