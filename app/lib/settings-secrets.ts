// Integration configs hold credentials. Once saved, a secret is never sent back
// to the browser in full: forms show it masked, and a masked value submitted
// unchanged means "keep what is stored".

/** Keys whose values are credentials (the same rule the audit log's redaction uses). */
const SECRET_KEY = /(password|secret|api_?key|token|access_key)/i;

const MASK = '••••••••';

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** '••••••••' plus the last 4 characters of a long secret, so a person can tell two apart. */
export function maskSecret(value: string): string {
  if (value === '') return '';
  return value.length >= 12 ? `${MASK}${value.slice(-4)}` : MASK;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of the config with every non-empty secret string masked. */
export function maskConfig(config: unknown): unknown {
  if (!isObject(config)) return config;
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      if (isSecretKey(key) && typeof value === 'string') return [key, maskSecret(value)];
      if (isObject(value)) return [key, maskConfig(value)];
      return [key, value];
    }),
  );
}

/**
 * The config to store: the submitted one, except that a secret submitted as
 * exactly the mask of the stored value keeps the stored value.
 */
export function restoreMaskedSecrets(submitted: unknown, stored: unknown): unknown {
  if (!isObject(submitted) || !isObject(stored)) return submitted;
  return Object.fromEntries(
    Object.entries(submitted).map(([key, value]) => {
      const previous = stored[key];
      if (isSecretKey(key) && typeof value === 'string' && typeof previous === 'string' && previous !== '') {
        return [key, value === maskSecret(previous) ? previous : value];
      }
      if (isObject(value) && isObject(previous)) return [key, restoreMaskedSecrets(value, previous)];
      return [key, value];
    }),
  );
}
