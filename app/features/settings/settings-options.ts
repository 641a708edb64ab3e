// The settings screens' lists (docs/product-guide.md): the website's and the account's
// timezones and currencies, integration types, and the config each
// integration type starts from. (Template types live with the templates: app/features/templates/schema.ts.)
import type { Option } from '~/lib/schemas/fields';
import { CURRENCY_CODES, CURRENCY_OPTIONS } from '../../lib/currencies.ts';

export const WEBSITE_TIMEZONES = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Paris',
  'Asia/Tokyo',
  'Asia/Dubai',
  'Australia/Sydney',
] as const;
/** The product's one list (app/lib/currencies.ts), on both screens. */
export const WEBSITE_CURRENCIES = CURRENCY_CODES;

/** docs/product-guide.md names the account timezones by city; they are stored as IANA names. */
export const ACCOUNT_TIMEZONE_OPTIONS: Option[] = [
  { value: 'UTC', label: 'UTC' },
  { value: 'America/New_York', label: 'New York' },
  { value: 'America/Chicago', label: 'Chicago' },
  { value: 'America/Denver', label: 'Denver' },
  { value: 'America/Los_Angeles', label: 'Los Angeles' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Europe/Paris', label: 'Paris' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
];
export const ACCOUNT_CURRENCIES = CURRENCY_CODES;

export const WEBSITE_TIMEZONE_OPTIONS: Option[] = WEBSITE_TIMEZONES.map((value) => ({ value, label: value }));
export const WEBSITE_CURRENCY_OPTIONS: Option[] = CURRENCY_OPTIONS;
export const ACCOUNT_CURRENCY_OPTIONS: Option[] = CURRENCY_OPTIONS;

/** Every currency the accounts table accepts. */
export const ALL_CURRENCIES = WEBSITE_CURRENCIES;
/** Every timezone either screen offers. */
export const ALL_TIMEZONES = [
  ...new Set<string>([...WEBSITE_TIMEZONES, ...ACCOUNT_TIMEZONE_OPTIONS.map((option) => option.value)]),
];

/**
 * A select's options, plus the stored value when it is not among them (set by
 * the other screen, say), so opening a form and saving it changes nothing.
 */
export function withCurrent(options: Option[], current: string | null | undefined): Option[] {
  if (!current || options.some((option) => option.value === current)) return options;
  return [...options, { value: current, label: current }];
}

export const INTEGRATION_TYPES = ['email', 'payment', 'crm', 'storage', 'sms', 'ai'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const INTEGRATION_TYPE_LABELS: Record<IntegrationType, string> = {
  email: 'Email',
  payment: 'Payment',
  crm: 'CRM',
  storage: 'Storage',
  sms: 'SMS and WhatsApp (Twilio)',
  ai: 'AI (OpenAI-compatible): replies and document extraction',
};

/** As docs/product-guide.md says: the config a new integration of each type starts from. */
export const INTEGRATION_CONFIG_PREFILL: Record<IntegrationType, Record<string, string | number>> = {
  email: { smtp_host: '', smtp_port: 587, smtp_user: '', smtp_password: '', from_email: '' },
  payment: { api_key: '', webhook_secret: '', currency: 'USD' },
  crm: { api_url: '', api_key: '', sync_interval: 'daily' },
  storage: { provider: '', bucket: '', access_key: '', secret_key: '' },
  // The helpdesk's channels (decision 076); the AI provider serves Suggest reply (076) and doc2data (082).
  sms: { account_sid: '', auth_token: '', from_number: '', whatsapp_from: '', api_url: 'https://api.twilio.com' },
  ai: { api_url: 'https://api.openai.com/v1', api_key: '', model: 'gpt-4o-mini' },
};

export function prefillConfig(type: IntegrationType): string {
  return JSON.stringify(INTEGRATION_CONFIG_PREFILL[type], null, 2);
}

export function isIntegrationType(value: unknown): value is IntegrationType {
  return typeof value === 'string' && (INTEGRATION_TYPES as readonly string[]).includes(value);
}
