// The one way mail leaves the product (decisions 022, 039). An account whose
// admin made an `email` integration its mail route (integrations.
// is_default_mail_route) sends through that SMTP server (our own client over
// cloudflare:sockets, smtp-client.server.ts); any other mail goes through the
// platform's HTTP mail API (MAIL_API_URL, as the server functions use). Every
// path refuses a header with a control character, and an SMTP server only on
// an SMTP port at a public address (smtp-policy.ts). Only the jobs runner calls
// this: a page never waits on a mail server.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { postToMailApi, type OutgoingMail } from '../../../supabase/functions/_shared/mail-api';
import { buildMessage, MailHeaderError } from './mime';
import { sendOverSmtp, SmtpError, type SmtpTimeouts } from './smtp-client.server';
import { allowedHosts, smtpTargetProblem } from './smtp-policy';

export type { OutgoingMail };
export { SmtpError };

export interface SmtpRoute {
  integrationId: string;
  host: string;
  port: number;
  user: string;
  password: string;
  from: string;
}

/** Thrown when the mail cannot go anywhere however often it is tried (no route, a broken integration, an unsafe header). */
export class UndeliverableMail extends Error {
  readonly permanent = true;
}

const DEFAULT_FROM = 'OpsHub <no-reply@opshub.app>';

/** The SMTP settings of an integration as its config stores them today (spec: host, port, user, password, from). */
export function smtpRouteFrom(integrationId: string, config: Record<string, unknown>): SmtpRoute | null {
  const read = (...keys: string[]) => {
    for (const key of keys) {
      const value = config[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      if (typeof value === 'number') return String(value);
    }
    return '';
  };
  const host = read('smtp_host', 'host');
  if (!host) return null;
  const port = Number(read('smtp_port', 'port') || 587);
  return {
    integrationId,
    host,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 587,
    user: read('smtp_user', 'user', 'username'),
    password: read('smtp_password', 'password', 'smtp_pass', 'pass'),
    from: read('from_email', 'from', 'smtp_from'),
  };
}

/**
 * The account's SMTP route: the integration named (Send test mail), else the
 * active `email` integration an admin made the account's mail route; null when
 * there is none (then the platform's mail API carries the mail).
 */
export async function smtpRouteOf(
  admin: SupabaseClient<Database>,
  accountId: string | null,
  integrationId?: string,
): Promise<SmtpRoute | null> {
  if (!accountId) return null;
  let query = admin.from('integrations').select('id').eq('account_id', accountId).eq('type', 'email').eq('is_active', true);
  query = integrationId ? query.eq('id', integrationId) : query.eq('is_default_mail_route', true);
  const { data, error } = await query.limit(1).maybeSingle();
  if (error) throw new Error(`reading the account's email integration failed: ${error.message}`);
  if (!data) {
    if (integrationId) throw new UndeliverableMail('The integration is not an active email integration of this account');
    return null;
  }
  const credentials = await admin.rpc('integration_credentials', { p_integration_id: data.id });
  if (credentials.error) throw new Error(`reading the integration's settings failed: ${credentials.error.message}`);
  const route = smtpRouteFrom(data.id, (credentials.data ?? {}) as Record<string, unknown>);
  // A default route that cannot carry mail fails loudly rather than going elsewhere unasked.
  if (!route) throw new UndeliverableMail('The integration has no SMTP host');
  return route;
}

/** Sends through one SMTP route, after checking where it points and every header. */
export async function sendSmtp(env: Pick<Env, 'SMTP_ALLOW_HOSTS'>, route: SmtpRoute, mail: OutgoingMail, timeouts?: SmtpTimeouts): Promise<void> {
  const problem = smtpTargetProblem(route.host, route.port, allowedHosts(env.SMTP_ALLOW_HOSTS));
  if (problem) throw new UndeliverableMail(`Not allowed: ${problem}`);
  let message;
  try {
    message = buildMessage(mail, mail.from ?? (route.from || route.user || DEFAULT_FROM));
  } catch (error) {
    if (error instanceof MailHeaderError) throw new UndeliverableMail(error.message);
    throw error;
  }
  await sendOverSmtp({ host: route.host, port: route.port, user: route.user, password: route.password }, message, timeouts);
}

/** Sends one mail for an account (null: the platform's own mail), by the route decision 022 describes. */
export async function sendAccountMail(
  admin: SupabaseClient<Database>,
  env: Env,
  accountId: string | null,
  mail: OutgoingMail,
  options: { integrationId?: string } = {},
): Promise<'smtp' | 'api'> {
  const route = await smtpRouteOf(admin, accountId, options.integrationId);
  if (route) {
    await sendSmtp(env, route, mail);
    return 'smtp';
  }
  if (!env.MAIL_API_URL) throw new UndeliverableMail('No mail route: the account has no mail route and MAIL_API_URL is not set');
  try {
    await postToMailApi({ url: env.MAIL_API_URL, key: env.MAIL_API_KEY, from: env.MAIL_FROM ?? DEFAULT_FROM }, mail);
  } catch (error) {
    if (error instanceof MailHeaderError) throw new UndeliverableMail(error.message);
    throw error;
  }
  return 'api';
}
