// The project's own auth mail templates, read from supabase/config.toml as the
// Supabase CLI reads them (`[auth.email.template.<kind>]` with `subject` and
// `content_path`), and filled in with GoTrue's template variables. The sign-up
// mail links to the app (/auth/confirm?token_hash=...), which confirms the
// address server-side, so it works without JavaScript in the browser.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../migrate.ts';

export const PROJECT_CONFIG_FILE = join(PROJECT_ROOT, 'supabase/config.toml');

export interface MailTemplate {
  subject: string;
  html: string;
}

export interface ProjectAuthConfig {
  /** `[auth.email] enable_confirmations` (hosted: "Confirm email"). */
  confirmEmail: boolean;
  confirmationTemplate?: MailTemplate;
  /** `[auth.email.template.recovery]`: the password reset mail. */
  recoveryTemplate?: MailTemplate;
  /** `[auth.email.template.email_change]`: the mail confirming a new address. */
  emailChangeTemplate?: MailTemplate;
}

/** One `[section]` of a TOML file as `key = "value"` / `key = true` pairs (all this file uses). */
function tomlSection(toml: string, name: string): Record<string, string> | undefined {
  const section = toml.split(/^\[/m).find((part) => part.startsWith(`${name}]`));
  if (!section) return undefined;
  const values: Record<string, string> = {};
  for (const [, key, value] of section.matchAll(/^\s*([a-z_]+)\s*=\s*(.+?)\s*$/gm)) {
    values[key] = value.replace(/^"(.*)"$/, '$1');
  }
  return values;
}

function readTemplate(configFile: string, toml: string, kind: string, defaultSubject: string): MailTemplate | undefined {
  const template = tomlSection(toml, `auth.email.template.${kind}`);
  if (!template?.content_path) return undefined;
  // content_path is relative to the project root (the folder holding supabase/).
  const html = readFileSync(join(dirname(configFile), '..', template.content_path), 'utf8');
  return { subject: template.subject ?? defaultSubject, html };
}

export function readProjectAuthConfig(configFile = PROJECT_CONFIG_FILE): ProjectAuthConfig {
  if (!existsSync(configFile)) return { confirmEmail: false };
  const toml = readFileSync(configFile, 'utf8');
  return {
    confirmEmail: tomlSection(toml, 'auth.email')?.enable_confirmations === 'true',
    confirmationTemplate: readTemplate(configFile, toml, 'confirmation', 'Confirm Your Signup'),
    recoveryTemplate: readTemplate(configFile, toml, 'recovery', 'Reset Your Password'),
    emailChangeTemplate: readTemplate(configFile, toml, 'email_change', 'Confirm Email Change'),
  };
}

export interface TemplateValues {
  SiteURL: string;
  TokenHash: string;
  ConfirmationURL: string;
  RedirectTo: string;
  Email: string;
  /** The address an e-mail change moves to (GoTrue's `{{ .NewEmail }}`). */
  NewEmail?: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** GoTrue's `{{ .Name }}` substitutions (escaped, as Go's html/template does in attributes and text). */
export function renderTemplate(html: string, values: TemplateValues): string {
  return html.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (whole, name: string) =>
    values[name as keyof TemplateValues] !== undefined ? escapeHtml(values[name as keyof TemplateValues]!) : whole,
  );
}

/** A plain-text part for the outbox: each link written out after its words, tags dropped. */
export function htmlToText(html: string): string {
  return html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gis, '$2:\n$1')
    .replace(/<\/(p|h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .concat('\n');
}
