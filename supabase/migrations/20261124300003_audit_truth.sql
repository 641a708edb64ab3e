-- What an audit row says about who asked, and how much of a record it copies.
--
-- 1. The client's IP and user agent come only from a header the app's Worker
--    signs: `x-opshub-client: <unix seconds>.<base64 of {"ip","ua"}>.<hex
--    HMAC-SHA256 of "<seconds>.<base64>">`, keyed by a secret that only the
--    Worker (AUDIT_SIGNING_SECRET) and this database (private.audit_signing_key,
--    set at deploy time; the local backend sets it at start) know. Anything
--    else a caller sends (x-forwarded-for, user-agent, a stale or badly signed
--    header) is ignored: the row stores null rather than what a caller chose.
-- 2. Snapshots (old_values, new_values) are capped: a long text value becomes
--    {"truncated": true, "length": N, "sha256": "..."}, and a row whose
--    snapshot is still too large keeps only its small values.

create table private.audit_signing_key (
  id boolean primary key default true check (id),
  secret text not null check (length(secret) >= 32),
  updated_at timestamptz not null default now()
);
revoke all on private.audit_signing_key from public;

-- The signed client of this request, or no row.
create or replace function private.signed_request_client(out ip_address text, out user_agent text)
returns setof record
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_header text := private.request_header('x-opshub-client');
  v_secret text;
  v_parts text[];
  v_payload jsonb;
begin
  if v_header is null or length(v_header) > 4096 then
    return;
  end if;
  v_parts := string_to_array(v_header, '.');
  if cardinality(v_parts) <> 3 or v_parts[1] !~ '^[0-9]{1,12}$' then
    return;
  end if;
  -- Five minutes either way: a signed header is useless to whoever finds it later.
  if abs(extract(epoch from now()) - v_parts[1]::bigint) > 300 then
    return;
  end if;
  select k.secret into v_secret from private.audit_signing_key k;
  if v_secret is null
     or encode(extensions.hmac(v_parts[1] || '.' || v_parts[2], v_secret, 'sha256'), 'hex') <> lower(v_parts[3]) then
    return;
  end if;
  v_payload := convert_from(decode(v_parts[2], 'base64'), 'UTF8')::jsonb;
  ip_address := left(nullif(v_payload ->> 'ip', ''), 64);
  user_agent := left(nullif(v_payload ->> 'ua', ''), 512);
  return next;
exception when others then
  -- A malformed payload tells us nothing: no row, as for no header.
  return;
end;
$$;

-- Long text is replaced by its length and hash, in nested values too.
create or replace function private.cap_audit_value(p_value jsonb, p_max_text integer default 1000) returns jsonb
language sql immutable
set search_path = ''
as $$
  select case jsonb_typeof(p_value)
    when 'string' then
      case when length(p_value #>> '{}') > p_max_text
        then jsonb_build_object('truncated', true, 'length', length(p_value #>> '{}'),
                                'sha256', encode(sha256(convert_to(p_value #>> '{}', 'UTF8')), 'hex'))
        else p_value
      end
    when 'object' then (
      select coalesce(jsonb_object_agg(e.key, private.cap_audit_value(e.value, p_max_text)), '{}'::jsonb)
        from jsonb_each(p_value) e)
    when 'array' then (
      select coalesce(jsonb_agg(private.cap_audit_value(a.value, p_max_text) order by a.n), '[]'::jsonb)
        from jsonb_array_elements(p_value) with ordinality a (value, n))
    else p_value
  end
$$;

-- A whole snapshot at most ~16 KB: values are capped at 1,000 characters; if
-- the row is still larger (many values, long lists), each top-level value
-- over 200 characters of JSON is replaced by its length and hash.
create or replace function private.cap_audit_snapshot(p_values jsonb) returns jsonb
language plpgsql immutable
set search_path = ''
as $$
declare
  v_capped jsonb;
begin
  if p_values is null then
    return null;
  end if;
  -- The trigger runs once per row written: a snapshot whose whole text is no
  -- longer than the per-value cap cannot hold a value to cap, so it is not walked.
  if length(p_values::text) <= 1000 then
    return p_values;
  end if;
  v_capped := private.cap_audit_value(p_values);
  if length(v_capped::text) <= 16384 or jsonb_typeof(v_capped) <> 'object' then
    return v_capped;
  end if;
  select jsonb_object_agg(e.key,
           case when length(e.value::text) > 200
             then jsonb_build_object('truncated', true, 'length', length(e.value::text),
                                     'sha256', encode(sha256(convert_to(e.value::text, 'UTF8')), 'hex'))
             else e.value
           end)
    into v_capped
    from jsonb_each(v_capped) e;
  if length(v_capped::text) > 16384 then
    -- Thousands of keys: only their count survives.
    v_capped := jsonb_build_object('truncated', true, 'length', length(p_values::text),
                                   'sha256', encode(sha256(convert_to(p_values::text, 'UTF8')), 'hex'));
  end if;
  return v_capped;
end;
$$;

-- Writes one audit row. p_user_id defaults to the user acting in this request.
-- The verified client of this request, checked once per transaction (a
-- 1,000-row import writes 1,000 audit rows): the verdict is kept in
-- transaction-local settings, keyed by the header it was made for.
create or replace function private.request_client(out ip_address text, out user_agent text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_header text := coalesce(private.request_header('x-opshub-client'), '');
begin
  if current_setting('audit.client_header', true) is distinct from v_header then
    select c.ip_address, c.user_agent into ip_address, user_agent from private.signed_request_client() c;
    perform set_config('audit.client_header', v_header, true),
            set_config('audit.client_ip', coalesce(ip_address, ''), true),
            set_config('audit.client_ua', coalesce(user_agent, ''), true);
    return;
  end if;
  ip_address := nullif(current_setting('audit.client_ip', true), '');
  user_agent := nullif(current_setting('audit.client_ua', true), '');
end;
$$;

create or replace function private.write_audit(
  p_account_id uuid,
  p_action text,
  p_resource_type text,
  p_resource_id uuid,
  p_old_values jsonb,
  p_new_values jsonb,
  p_user_id uuid default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_client record;
begin
  select * into v_client from private.request_client();
  insert into public.audit_logs (account_id, user_id, action, resource_type, resource_id, old_values, new_values, ip_address, user_agent)
  values (
    p_account_id,
    coalesce(p_user_id, private.acting_user_id()),
    p_action,
    p_resource_type,
    p_resource_id,
    private.cap_audit_snapshot(p_old_values),
    private.cap_audit_snapshot(p_new_values),
    v_client.ip_address,
    v_client.user_agent
  );
end;
$$;

revoke all on function private.signed_request_client() from public;
revoke all on function private.request_client() from public;
revoke all on function private.cap_audit_value(jsonb, integer) from public;
revoke all on function private.cap_audit_snapshot(jsonb) from public;
revoke all on function private.write_audit(uuid, text, text, uuid, jsonb, jsonb, uuid) from public;
