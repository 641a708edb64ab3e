// What every part of the local backend (REST, auth, functions) is handed.
import type { MailTemplate } from './auth/templates.ts';
import type { Db } from './db.ts';
import type { SigningKey } from './keys.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  sentAt?: string;
  from?: string;
  /** Attachments of mail that came in over SMTP or the HTTP mail API (content in base64). */
  attachments?: { filename: string; contentType: string; size: number; content: string }[];
  /** How it arrived: the backend's own mail (auth, functions), its HTTP mail API or its SMTP listener. */
  via?: 'backend' | 'http' | 'smtp';
  /** Mail that came in over SMTP: its header block as received, and the envelope's recipients (RCPT TO). */
  rawHeaders?: string;
  rcptTo?: string[];
}

export interface Outbox {
  send(message: MailMessage): Promise<void>;
  list(): MailMessage[];
  clear(): void;
}

export interface BackendContext {
  db: Db;
  /** Public base URL of this backend, e.g. http://127.0.0.1:54321 */
  url: string;
  /** Where auth e-mails link to (the app): GoTrue's SITE_URL. */
  siteUrl: string;
  jwtSecret: string;
  /** The ES256 key access tokens are signed with; null: an HS256 project (tokens signed with jwtSecret). */
  signingKey: SigningKey | null;
  anonKey: string;
  serviceRoleKey: string;
  /** Access token lifetime in seconds (GoTrue's JWT_EXP, default 3600). */
  jwtExpiry: number;
  /** GoTrue's MAILER_AUTOCONFIRM inverted: false locally unless configured. */
  confirmEmail: boolean;
  /** The project's sign-up mail (supabase/config.toml); GoTrue's default when absent. */
  confirmationTemplate?: MailTemplate;
  /** The project's password reset and e-mail change mails; GoTrue's defaults when absent. */
  recoveryTemplate?: MailTemplate;
  emailChangeTemplate?: MailTemplate;
  outbox: Outbox;
  quiet: boolean;
}
