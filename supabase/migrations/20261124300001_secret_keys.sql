-- One rule for "this key holds a credential", used by the audit log's
-- redaction and by the write-only integration secrets (20261124300002). The
-- app's masking (app/lib/secret-keys.ts) states the same rule in TypeScript;
-- tests/support/secret-key-cases.ts holds both to one table of cases.
--
-- A key is normalised first (camelCase split, separators to '_', lower case),
-- then matched as whole '_'-separated words, so `smtp_pass`, `smtpPass` and
-- `X-Api-Key` are secrets while `passport` or `bypass_cache` are not.
create or replace function private.is_secret_key(p_key text) returns boolean
language sql immutable
set search_path = ''
as $$
  select coalesce(
    lower(regexp_replace(regexp_replace(p_key, '([a-z0-9])([A-Z])', '\1_\2', 'g'), '[^a-zA-Z0-9]+', '_', 'g'))
      ~ '(^|_)(pass|passwd|password|passphrase|pwd|secret|token|authorization|credential|credentials|apikey|api_key|accesskey|access_key|privatekey|private_key|signingkey|signing_key)(_|$)',
    false)
$$;

-- A copy of a JSON value with every credential replaced by '[redacted]',
-- in nested objects and in arrays alike. A blank (null, '') or a flag (true:
-- "a value is stored") is no credential and stays as it is.
create or replace function private.redact_secrets(p_values jsonb) returns jsonb
language sql immutable
set search_path = ''
as $$
  select case jsonb_typeof(p_values)
    when 'object' then (
      select coalesce(jsonb_object_agg(
        e.key,
        case
          when private.is_secret_key(e.key) and e.value not in ('null'::jsonb, '""'::jsonb)
               and jsonb_typeof(e.value) <> 'boolean'
            then to_jsonb('[redacted]'::text)
          else private.redact_secrets(e.value)
        end), '{}'::jsonb)
      from jsonb_each(p_values) e)
    when 'array' then (
      select coalesce(jsonb_agg(private.redact_secrets(a.value) order by a.n), '[]'::jsonb)
      from jsonb_array_elements(p_values) with ordinality a (value, n))
    else p_values
  end
$$;

revoke all on function private.is_secret_key(text) from public;
revoke all on function private.redact_secrets(jsonb) from public;
