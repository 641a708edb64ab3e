-- Integration secrets are write-only. Whoever may write an integration may set
-- its secrets, but no browser-facing role (anon, authenticated: admins
-- included) ever reads one back; server code with the service role reads them
-- through public.integration_credentials().
--
-- integrations.config keeps the non-secret settings and the shape of the
-- secret ones (their keys, with '' as the value); the values live in
-- private.integration_secrets, a schema the API roles cannot see.
-- integrations.secrets_set mirrors which secrets hold a value ({"api_key":
-- true}), so a form can show them masked without having them.
--
-- Every write of integrations.config goes through one trigger, however it
-- arrives (the settings screen, a direct REST call, the service role, the
-- seed): a secret key with a value stores that value; a blank one ('' or
-- null) keeps what is stored; a secret key left out of the config is
-- forgotten.

create table private.integration_secrets (
  -- Deferred: the row is written by the integration's BEFORE INSERT trigger,
  -- before the integration itself exists.
  integration_id uuid primary key
    references public.integrations (id) on delete cascade deferrable initially deferred,
  secrets jsonb not null default '{}' check (jsonb_typeof(secrets) = 'object'),
  updated_at timestamptz not null default now()
);
revoke all on private.integration_secrets from public;

alter table public.integrations
  add column secrets_set jsonb not null default '{}' check (jsonb_typeof(secrets_set) = 'object');

-- Whether a JSON value holds a credential anywhere below it.
create or replace function private.holds_secret(p_value jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select case jsonb_typeof(p_value)
    when 'object' then exists (
      select 1 from jsonb_each(p_value) e
       where (private.is_secret_key(e.key) and e.value not in ('null'::jsonb, '""'::jsonb))
          or private.holds_secret(e.value))
    when 'array' then exists (select 1 from jsonb_array_elements(p_value) a where private.holds_secret(a.value))
    else false
  end
$$;

-- Splits a submitted config into what anyone of the account may read and the
-- secrets, given the secrets stored before (null for a new integration).
create or replace function private.split_integration_config(
  p_config jsonb, p_stored jsonb, out config jsonb, out secrets jsonb)
language plpgsql immutable
set search_path = ''
as $$
declare
  v_entry record;
  v_stored jsonb;
  v_nested record;
begin
  config := '{}'::jsonb;
  secrets := '{}'::jsonb;
  for v_entry in select e.key, e.value from jsonb_each(p_config) e loop
    v_stored := case when jsonb_typeof(p_stored) = 'object' then p_stored -> v_entry.key end;
    if private.is_secret_key(v_entry.key) then
      config := config || jsonb_build_object(v_entry.key, '');
      if v_entry.value not in ('null'::jsonb, '""'::jsonb) then
        secrets := secrets || jsonb_build_object(v_entry.key, v_entry.value);
      elsif v_stored is not null then
        secrets := secrets || jsonb_build_object(v_entry.key, v_stored);
      end if;
    elsif jsonb_typeof(v_entry.value) = 'object' then
      select * into v_nested from private.split_integration_config(v_entry.value, v_stored);
      config := config || jsonb_build_object(v_entry.key, v_nested.config);
      if v_nested.secrets <> '{}'::jsonb then
        secrets := secrets || jsonb_build_object(v_entry.key, v_nested.secrets);
      end if;
    elsif private.holds_secret(v_entry.value) then
      -- A list has no stable place to keep a secret across edits.
      raise exception 'Secrets inside lists are not supported: put them in an object' using errcode = '22023';
    else
      config := config || jsonb_build_object(v_entry.key, v_entry.value);
    end if;
  end loop;
end;
$$;

-- {"api_key": true, "smtp": {"pass": true}}: which secrets hold a value.
create or replace function private.secrets_shape(p_secrets jsonb) returns jsonb
language sql immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(e.key,
           case when private.is_secret_key(e.key) then 'true'::jsonb else private.secrets_shape(e.value) end),
         '{}'::jsonb)
    from jsonb_each(p_secrets) e
$$;

-- a with b laid over it, object by object.
create or replace function private.jsonb_deep_merge(p_base jsonb, p_over jsonb) returns jsonb
language sql immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(coalesce(b.key, o.key),
           case
             when jsonb_typeof(b.value) = 'object' and jsonb_typeof(o.value) = 'object'
               then private.jsonb_deep_merge(b.value, o.value)
             else coalesce(o.value, b.value)
           end), '{}'::jsonb)
    from jsonb_each(p_base) b
    full join jsonb_each(p_over) o on o.key = b.key
$$;

create or replace function private.keep_integration_secrets_apart() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stored jsonb;
  v_split record;
begin
  if tg_op = 'UPDATE' and new.id is distinct from old.id then
    raise exception 'An integration keeps its id' using errcode = '42501';
  end if;
  select s.secrets into v_stored from private.integration_secrets s where s.integration_id = new.id;
  select * into v_split from private.split_integration_config(new.config, v_stored);
  new.config := v_split.config;
  new.secrets_set := private.secrets_shape(v_split.secrets);
  if v_split.secrets = '{}'::jsonb then
    delete from private.integration_secrets s where s.integration_id = new.id;
  else
    insert into private.integration_secrets as s (integration_id, secrets)
    values (new.id, v_split.secrets)
    on conflict (integration_id) do update
      set secrets = excluded.secrets, updated_at = now()
      where s.secrets is distinct from excluded.secrets;
  end if;
  return new;
end;
$$;

create trigger integrations_keep_secrets_apart before insert or update on public.integrations
  for each row execute function private.keep_integration_secrets_apart();

-- The whole config, secrets included, for server code (the service role).
create or replace function public.integration_credentials(p_integration_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.jsonb_deep_merge(i.config, coalesce(s.secrets, '{}'::jsonb))
    from public.integrations i
    left join private.integration_secrets s on s.integration_id = i.id
   where i.id = p_integration_id
$$;

revoke all on function public.integration_credentials(uuid) from public, anon, authenticated;
grant execute on function public.integration_credentials(uuid) to service_role;
revoke all on function private.holds_secret(jsonb) from public;
revoke all on function private.split_integration_config(jsonb, jsonb) from public;
revoke all on function private.secrets_shape(jsonb) from public;
revoke all on function private.jsonb_deep_merge(jsonb, jsonb) from public;
revoke all on function private.keep_integration_secrets_apart() from public;

-- secrets_set is the trigger's to write; members write only what they may.
revoke insert, update on public.integrations from authenticated;
grant insert (id, account_id, name, type, config, is_active, created_by) on public.integrations to authenticated;
grant update (name, type, config, is_active, updated_at) on public.integrations to authenticated;

-- Existing secrets move out of the readable config (the trigger does it; the
-- audit log records the move with the values redacted).
update public.integrations set config = config;
