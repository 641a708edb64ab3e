-- The audit trail: written only by triggers (security definer functions),
-- readable by the account's admins, never altered.

create table public.audit_logs (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  user_id uuid references public.users (id) on delete set null,
  -- snake_case, as the audit screen's badge colours expect (quote_created...).
  action text not null check (action ~ '^[a-z]+(_[a-z0-9]+)*$'),
  resource_type text not null,
  resource_id uuid,
  old_values jsonb,
  new_values jsonb,
  ip_address text,
  user_agent text,
  created_at timestamptz not null default now()
);
create index audit_logs_account_id_created_at_idx on public.audit_logs (account_id, created_at desc);
create index audit_logs_user_id_idx on public.audit_logs (user_id);

-- Append-only, even for the table owner and the service role. The only changes
-- allowed are the ones foreign keys make when the referenced row is gone:
-- deleting an account removes its log, deleting a user blanks user_id.
-- Security definer so the existence checks see past the caller's RLS.
create or replace function private.guard_audit_logs() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    if not exists (select 1 from public.accounts a where a.id = old.account_id) then
      return old;
    end if;
  elsif tg_op = 'UPDATE' then
    if new.user_id is null and old.user_id is not null
       and (to_jsonb(new) - 'user_id') = (to_jsonb(old) - 'user_id')
       and not exists (select 1 from public.users u where u.id = old.user_id) then
      return new;
    end if;
  end if;
  raise exception 'Audit logs are append-only' using errcode = '42501';
end;
$$;

create trigger audit_logs_append_only before update or delete on public.audit_logs
  for each row execute function private.guard_audit_logs();

-- The public.users row acting in this request, active or not (the log keeps
-- who did something even if they are deactivated later).
create or replace function private.acting_user_id() returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select u.id from public.users u where u.auth_user_id = auth.uid()
$$;

-- A request header PostgREST passes in request.headers, or null.
create or replace function private.request_header(p_name text) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return nullif(current_setting('request.headers', true), '')::jsonb ->> p_name;
exception when others then
  return null;
end;
$$;

-- Writes one audit row. p_user_id defaults to the user acting in this request.
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
begin
  insert into public.audit_logs (account_id, user_id, action, resource_type, resource_id, old_values, new_values, ip_address, user_agent)
  values (
    p_account_id,
    coalesce(p_user_id, private.acting_user_id()),
    p_action,
    p_resource_type,
    p_resource_id,
    p_old_values,
    p_new_values,
    btrim(split_part(coalesce(private.request_header('x-forwarded-for'), private.request_header('x-real-ip'), ''), ',', 1)),
    private.request_header('user-agent')
  );
end;
$$;

-- The columns an update really changed (ignoring bookkeeping), as a pair of
-- objects: what they were and what they became.
create or replace function private.changed_values(p_old jsonb, p_new jsonb, out old_values jsonb, out new_values jsonb)
language sql immutable
set search_path = ''
as $$
  select
    coalesce(jsonb_object_agg(o.key, o.value), '{}'::jsonb),
    coalesce(jsonb_object_agg(o.key, p_new -> o.key), '{}'::jsonb)
  from jsonb_each(p_old) o
  where o.key not in ('updated_at')
    and (p_new -> o.key) is distinct from o.value
$$;

-- Integration configs hold credentials: the log keeps their shape, not their secrets.
create or replace function private.redact_secrets(p_values jsonb) returns jsonb
language sql immutable
set search_path = ''
as $$
  select case
    when p_values is null or jsonb_typeof(p_values) <> 'object' then p_values
    else (
      select coalesce(jsonb_object_agg(
        e.key,
        case
          when e.key ~* '(password|secret|api_key|apikey|token|access_key|secret_key)' and e.value <> 'null'::jsonb
            then to_jsonb('[redacted]'::text)
          when jsonb_typeof(e.value) = 'object' then private.redact_secrets(e.value)
          else e.value
        end), '{}'::jsonb)
      from jsonb_each(p_values) e
    )
  end
$$;

-- The API roles never write the log themselves.
revoke insert, update, delete, truncate on public.audit_logs from anon, authenticated, service_role;
revoke all on function private.write_audit(uuid, text, text, uuid, jsonb, jsonb, uuid) from public;
