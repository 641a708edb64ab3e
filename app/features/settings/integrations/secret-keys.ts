// Which config keys hold credentials. The database states the same rule in
// SQL (private.is_secret_key, migration 20261124300001) for the audit log's
// redaction and the write-only integration secrets; the two cannot share
// code, so tests/support/secret-key-cases.ts holds both to one table of cases.
//
// A key is normalised (camelCase split, separators to '_', lower case) and
// matched as whole words: `smtp_pass`, `smtpPass` and `X-Api-Key` are
// secrets; `passport` and `bypass_cache` are not.
const SECRET_WORDS =
  /(^|_)(pass|passwd|password|passphrase|pwd|secret|token|authorization|credential|credentials|apikey|api_key|accesskey|access_key|privatekey|private_key|signingkey|signing_key)(_|$)/;

export function isSecretKey(key: string): boolean {
  const normalised = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .toLowerCase();
  return SECRET_WORDS.test(normalised);
}
