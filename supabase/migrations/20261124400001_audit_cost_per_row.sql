-- The audit trigger runs once per row written, so a 1,000-row import wrote
-- 1,000 audit rows and, since 20261124300003, checked the signed client header
-- (an HMAC) and walked every snapshot value 1,000 times: the import became
-- about five times slower and held other tenants of the local backend for
-- over a second (bench/README.md, "One tenant's bulk insert").
-- Two things make it cheap again, with the same results:
--   * the client header is verified once per transaction: the verdict is kept
--     in transaction-local settings, keyed by the header it was made for;
--   * a snapshot whose whole text is shorter than the per-value cap cannot
--     hold a value to cap, so it is returned without being walked.

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
  -- No value of it can be over 1,000 characters if all of it is not.
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

-- The verified client of this request, checked once per transaction.
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

revoke all on function private.request_client() from public;
revoke all on function private.cap_audit_snapshot(jsonb) from public;
revoke all on function private.write_audit(uuid, text, text, uuid, jsonb, jsonb, uuid) from public;
