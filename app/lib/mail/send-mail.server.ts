// The one way mail leaves the product (decision 022). An account with an
// active `email` integration sends through its own SMTP server (worker-mailer
// over cloudflare:sockets); any other mail goes through the platform's HTTP
// mail API (MAIL_API_URL, as the server functions use). Only the jobs runner
// calls this: a page never waits on a mail server.
import type { SupabaseClient } from '@supabase/supabase-js';
import { LogLevel, WorkerMailer } from 'worker-mailer';
import type { Database } from '~/lib/database.types';
import { postToMailApi, type OutgoingMail } from '../../../supabase/functions/_shared/mail-api';

export type { OutgoingMail };

export interface SmtpRoute {
  integrationId: string;
  host: string;
  port: number;
  user: string;
  password: string;
  from: string;
}

/** Thrown when the mail cannot go anywhere however often it is tried (no route, a broken integration). */
export class UndeliverableMail extends Error {}

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
 * The account's SMTP route: the integration named (Send test mail), else its
 * newest active `email` integration; null when it has none.
 */
export async function smtpRouteOf(
  admin: SupabaseClient<Database>,
  accountId: string | null,
  integrationId?: string,
): Promise<SmtpRoute | null> {
  if (!accountId) return null;
  let query = admin.from('integrations').select('id').eq('account_id', accountId).eq('type', 'email').eq('is_active', true);
  if (integrationId) query = query.eq('id', integrationId);
  const { data, error } = await query.order('created_at', { ascending: false }).limit(1).maybeSingle();
  if (error) throw new Error(`reading the account's email integration failed: ${error.message}`);
  if (!data) {
    if (integrationId) throw new UndeliverableMail('The integration is not an active email integration of this account');
    return null;
  }
  const credentials = await admin.rpc('integration_credentials', { p_integration_id: data.id });
  if (credentials.error) throw new Error(`reading the integration's settings failed: ${credentials.error.message}`);
  const route = smtpRouteFrom(data.id, (credentials.data ?? {}) as Record<string, unknown>);
  if (!route && integrationId) throw new UndeliverableMail('The integration has no SMTP host');
  return route;
}

export async function sendSmtp(route: SmtpRoute, mail: OutgoingMail): Promise<void> {
  await WorkerMailer.send(
    {
      host: route.host,
      port: route.port,
      // 465 is TLS from the first byte; elsewhere STARTTLS when the server offers it.
      secure: route.port === 465,
      startTls: route.port !== 465,
      credentials: route.user ? { username: route.user, password: route.password } : undefined,
      authType: ['plain', 'login'],
      socketTimeoutMs: 15_000,
      responseTimeoutMs: 15_000,
      logLevel: LogLevel.ERROR,
    },
    {
      from: mail.from ?? (route.from || route.user || DEFAULT_FROM),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, mimeType: a.contentType })),
    },
  );
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
    await sendSmtp(route, mail);
    return 'smtp';
  }
  if (!env.MAIL_API_URL) throw new UndeliverableMail('No mail route: the account has no email integration and MAIL_API_URL is not set');
  await postToMailApi({ url: env.MAIL_API_URL, key: env.MAIL_API_KEY, from: env.MAIL_FROM ?? DEFAULT_FROM }, mail);
  return 'api';
}
