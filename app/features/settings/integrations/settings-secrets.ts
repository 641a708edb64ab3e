// Integration secrets are write-only (decision 014): the database keeps their
// values where no browser-facing role can read them and tells the app only
// which are set (integrations.secrets_set, e.g. {"api_key": true}). The edit
// form shows a set secret as a mask; a secret submitted blank, or as the mask,
// keeps the stored value. The form's fields for secrets start empty (a
// password input with "Saved" beside it); the mask is still accepted back
// from forms and scripts written before that.
import { isSecretKey } from './secret-keys';

export { isSecretKey };

export const SECRET_MASK = '••••••••';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const isPlainObject = isObject;

/**
 * The config as the edit form's JSON editor shows it: every secret blank,
 * whatever the config says (a blank secret keeps the stored one on save).
 * Secret fields are never prefilled, not even with a mask.
 */
export function blankSecrets(config: unknown): unknown {
  if (!isObject(config)) return config;
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      if (isSecretKey(key)) return [key, ''];
      if (isObject(value)) return [key, blankSecrets(value)];
      return [key, value];
    }),
  );
}

/** integrations.secrets_set as the form reads it: the top-level secrets that hold a value. */
export function secretsSetOf(secretsSet: unknown): Record<string, boolean> {
  if (!isObject(secretsSet)) return {};
  return Object.fromEntries(Object.entries(secretsSet).filter(([, value]) => value === true).map(([key]) => [key, true]));
}

/**
 * The config as the edit form shows it: each secret key holds the mask when
 * a value is stored for it, '' when not, whatever the config itself says.
 */
export function maskConfig(config: unknown, secretsSet: unknown): unknown {
  if (!isObject(config)) return config;
  const set = isObject(secretsSet) ? secretsSet : {};
  const masked = Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      if (isSecretKey(key)) return [key, set[key] === true ? SECRET_MASK : ''];
      if (isObject(value)) return [key, maskConfig(value, set[key])];
      return [key, value];
    }),
  );
  // A stored secret whose key the config lacks still shows that it is set.
  for (const [key, value] of Object.entries(set)) {
    if (value === true && !(key in masked)) masked[key] = SECRET_MASK;
  }
  return masked;
}

/** The config to send: a secret left as the mask becomes blank, which keeps the stored one. */
export function blankMaskedSecrets(config: unknown): unknown {
  if (!isObject(config)) return config;
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      if (isSecretKey(key) && value === SECRET_MASK) return [key, ''];
      if (isObject(value)) return [key, blankMaskedSecrets(value)];
      return [key, value];
    }),
  );
}
