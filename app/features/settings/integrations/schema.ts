// Integrations (docs/product-guide.md): name and config required. The config is
// typed field by field per integration type (SMTP host, port, user, password,
// from address; API keys; ...), or, as an advanced option, written as a JSON
// object. Secret fields are write-only (decision 014): never prefilled, and a
// blank one keeps the stored value.
import { z } from '~/lib/schemas/zod';
import { INTEGRATION_CONFIG_PREFILL, INTEGRATION_TYPES, type IntegrationType } from '~/features/settings/settings-options';
import { isSecretKey } from './secret-keys';
import { deleteByIdSchema, jsonText, MAX_JSON_LENGTH, requiredText, setActiveSchema, uuid } from '~/lib/schemas/fields';

export type ConfigFieldKind = 'text' | 'port' | 'email' | 'url';

export interface ConfigField {
  key: string;
  label: string;
  kind: ConfigFieldKind;
  /** A credential (the one secret-key rule): a password input, never prefilled. */
  secret: boolean;
}

const field = (key: string, label: string, kind: ConfigFieldKind = 'text'): ConfigField => ({
  key,
  label,
  kind,
  secret: isSecretKey(key),
});

/** The fields of each type, in the order of its prefill. */
export const INTEGRATION_FIELDS: Record<IntegrationType, ConfigField[]> = {
  email: [
    field('smtp_host', 'SMTP host'),
    field('smtp_port', 'Port', 'port'),
    field('smtp_user', 'User'),
    field('smtp_password', 'Password'),
    field('from_email', 'From address', 'email'),
  ],
  payment: [field('api_key', 'API key'), field('webhook_secret', 'Webhook secret'), field('currency', 'Currency')],
  crm: [field('api_url', 'API URL', 'url'), field('api_key', 'API key'), field('sync_interval', 'Sync interval')],
  storage: [field('provider', 'Provider'), field('bucket', 'Bucket'), field('access_key', 'Access key'), field('secret_key', 'Secret key')],
  ai: [field('api_url', 'API URL', 'url'), field('api_key', 'API key'), field('model', 'Model')],
};

/** Every secret field's form name (`email.smtp_password`): a refused form never sends them back. */
export const SECRET_FIELD_NAMES = INTEGRATION_TYPES.flatMap((type) =>
  INTEGRATION_FIELDS[type].filter((f) => f.secret).map((f) => `${type}.${f.key}`),
);

const MAX_FIELD_LENGTH = 500;
const text = z.string().trim().max(MAX_FIELD_LENGTH, `At most ${MAX_FIELD_LENGTH} characters`).optional();
const group = (type: IntegrationType) =>
  z.object(Object.fromEntries(INTEGRATION_FIELDS[type].map((f) => [f.key, text]))).optional();

export const EDITORS = ['fields', 'json'] as const;

/** The form's fields as posted (Conform reads its constraints from this; the transform below is the save). */
export const integrationSaveInput = z.object({
  intent: z.literal('save'),
  id: uuid.optional(),
  name: requiredText('Name'),
  type: z.enum(INTEGRATION_TYPES, { error: 'Choose a type' }),
  /** How the config was written; a post without it (an older form, a script) is JSON unless it sends the type's fields. */
  editor: z.enum(EDITORS).optional(),
  config: jsonText('Config', { required: false }),
  email: group('email'),
  payment: group('payment'),
  crm: group('crm'),
  storage: group('storage'),
  ai: group('ai'),
});

type SaveInput = z.output<typeof integrationSaveInput>;

function typedConfig(input: SaveInput, ctx: z.RefinementCtx): Record<string, string | number> {
  const values = (input[input.type] ?? {}) as Record<string, string | undefined>;
  const config: Record<string, string | number> = {};
  for (const f of INTEGRATION_FIELDS[input.type]) {
    const value = values[f.key] ?? '';
    const path = [input.type, f.key];
    if (value && f.kind === 'port') {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port < 1 || port > 65_535) {
        ctx.addIssue({ code: 'custom', path, message: 'Port must be a whole number from 1 to 65535' });
        continue;
      }
      config[f.key] = port;
      continue;
    }
    if (value && f.kind === 'email' && !z.email().safeParse(value).success) {
      ctx.addIssue({ code: 'custom', path, message: 'Enter a valid email address' });
    }
    if (value && f.kind === 'url' && !/^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(value)) {
      ctx.addIssue({ code: 'custom', path, message: 'Enter a URL starting with https://' });
    }
    config[f.key] = value;
  }
  return config;
}

/**
 * What a save carries once read: the config as an object, from the typed
 * fields or the JSON editor, and which of the two wrote it (a typed save of
 * an existing integration is merged over its stored config, so keys the
 * fields do not show are kept).
 */
export const integrationFormSchema = integrationSaveInput.transform((input, ctx) => {
  const editor = input.editor ?? (input[input.type] ? 'fields' : 'json');
  let config: unknown;
  if (editor === 'json') {
    config = input.config;
    if (config === null) ctx.addIssue({ code: 'custom', path: ['config'], message: 'Config is required' });
    else if (typeof config !== 'object' || Array.isArray(config)) {
      ctx.addIssue({ code: 'custom', path: ['config'], message: 'Config must be a JSON object' });
    }
  } else {
    config = typedConfig(input, ctx);
  }
  return { intent: input.intent, id: input.id, name: input.name, type: input.type, editor, config: config as Record<string, unknown> };
});

/** Send test mail: queued for the jobs runner, which sends it through this integration (decision 022). */
export const testMailSchema = z.object({ intent: z.literal('test-mail'), id: uuid });

/** The account's mail route (decision 039): this email integration, or none (`id` left out: the platform's mail). */
export const mailRouteSchema = z.object({ intent: z.literal('mail-route'), id: uuid.optional() });

export const integrationActionSchema = z.discriminatedUnion('intent', [
  integrationFormSchema,
  setActiveSchema,
  deleteByIdSchema,
  testMailSchema,
  mailRouteSchema,
]);

/** The typed fields' starting values: the stored config's (secrets never), else the type's prefill. */
export function typedDefaults(type: IntegrationType, config: Record<string, unknown> | null): Record<string, string> {
  const source = config ?? INTEGRATION_CONFIG_PREFILL[type];
  return Object.fromEntries(
    INTEGRATION_FIELDS[type]
      .filter((f) => !f.secret)
      .map((f) => {
        const value = source[f.key];
        return [f.key, typeof value === 'string' || typeof value === 'number' ? String(value) : ''];
      }),
  );
}

export { MAX_JSON_LENGTH };

export const INTEGRATION_TEXTS = {
  created: 'Integration created successfully',
  updated: 'Integration updated successfully',
  deleted: 'Integration deleted successfully',
  activated: 'Integration activated successfully',
  deactivated: 'Integration deactivated successfully',
  saveFailed: 'Failed to save integration',
  deleteFailed: 'Failed to delete integration',
  statusFailed: 'Failed to update integration status',
  loadFailed: 'Failed to fetch integrations',
  sendsMail: 'Mail from this account is sent through this server',
  testMailQueued: 'Test mail queued: it is sent to you within a minute',
  testMailFailed: 'Failed to send test mail',
  testMailLimit: 'At most 5 test mails an hour: try again later',
  mailRouteSet: 'Mail from this account now goes through this server',
  mailRouteCleared: 'Mail from this account now goes through OpsHub',
  mailRouteFailed: 'Failed to change where mail is sent',
  noMailRoute: 'Mail from this account goes through OpsHub until you choose one of your email integrations',
} as const;
