-- The audit log: one row per change of a business record, written by triggers, signed, capped and
-- never edited.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.audit_logs ──

-- One row per change of a business record or setting, written by triggers only
-- (decision 014): who acted, what changed (secrets redacted, values capped). No
-- one may edit or delete a row.
create table public.audit_logs (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  user_id uuid,
  action text not null,
  resource_type text not null,
  resource_id uuid,
  old_values jsonb,
  new_values jsonb,
  ip_address text,
  user_agent text,
  created_at timestamp with time zone default now() not null,
  actor_kind text,
  actor_name text,
  actor_email text,
  constraint audit_logs_pkey primary key (id),
  constraint audit_logs_action_check check ((action ~ '^[a-z]+(_[a-z0-9]+)*$'::text)),
  constraint audit_logs_actor_email_check check ((length(actor_email) <= 320)),
  constraint audit_logs_actor_kind_check check ((actor_kind = any (array['user'::text, 'client'::text, 'system'::text]))),
  constraint audit_logs_actor_name_check check ((length(actor_name) <= 200)),
  constraint audit_logs_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint audit_logs_user_id_fkey foreign key (user_id) references public.users(id) on delete set null
);
alter table public.audit_logs enable row level security;

create index audit_logs_account_id_action_created_at_idx on public.audit_logs using btree (account_id, action, created_at desc, id desc);
create index audit_logs_account_id_created_at_id_idx on public.audit_logs using btree (account_id, created_at desc, id desc);
create index audit_logs_resource_idx on public.audit_logs using btree (account_id, resource_type, resource_id, created_at desc);
create index audit_logs_user_id_idx on public.audit_logs using btree (user_id);

revoke all on table public.audit_logs from public, anon, authenticated, service_role;
grant all on table public.audit_logs to authenticated, service_role;
revoke delete, insert, truncate, update on table public.audit_logs from authenticated, service_role;

create or replace function private.guard_audit_logs()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.guard_audit_logs() from public, anon, authenticated, service_role;
grant execute on function private.guard_audit_logs() to public;

create or replace function public.audit_log_actions()
 returns table(action text)
 language plpgsql
 stable
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if not public.can_read_settings() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  return query
    with recursive found (action) as (
      (select l.action from public.audit_logs l
        where l.account_id = v_account
        order by l.action limit 1)
      union all
      select (select l.action from public.audit_logs l
               where l.account_id = v_account and l.action > found.action
               order by l.action limit 1)
        from found
       where found.action is not null
    )
    select found.action from found where found.action is not null order by found.action;
end;
$function$;
revoke all on function public.audit_log_actions() from public, anon, authenticated, service_role;
grant execute on function public.audit_log_actions() to authenticated, service_role;

create or replace function public.list_audit_logs(p_search text default null::text, p_action text default null::text, p_limit integer default 100, p_offset integer default 0)
 returns table(id uuid, action text, resource_type text, resource_id uuid, record_name text, old_values jsonb, new_values jsonb, ip_address text, user_agent text, created_at timestamp with time zone, user_email text, user_first_name text, user_last_name text, actor_kind text, actor_name text, actor_email text)
 language plpgsql
 stable
 set search_path to ''
as $function$
declare
  v_search text := lower(replace(btrim(coalesce(p_search, '')), '_', ' '));
  v_action text := nullif(btrim(coalesce(p_action, '')), '');
  v_current_name text;
  v_snapshot_name text;
  v_actions text[];
  v_types text[];
  v_users uuid[];
begin
  if not public.can_read_settings() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  select coalesce(string_agg(format('when %L then (select (%s)::text from %s r where r.id = p.resource_id)',
                                    n.type, n.name_sql, n.table_name), ' ')
                    filter (where n.name_sql is not null), ''),
         coalesce(string_agg(format('when %L then case when jsonb_typeof(p.snap -> %2$L) = ''string'' then nullif(btrim(p.snap ->> %2$L), '''') end',
                                    n.type, n.snapshot_key), ' ')
                    filter (where n.snapshot_key is not null), '')
    into v_current_name, v_snapshot_name
    from public.audit_record_naming() n;
  if v_search <> '' then
    -- What the words can match, from the short lists: the log's actions and
    -- record types (one index probe each, skipping through the log) and the
    -- account's users by name.
    select coalesce(array_agg(a.action), '{}') into v_actions
      from public.audit_log_actions() a
     where strpos(replace(lower(a.action), '_', ' '), v_search) > 0;
    with recursive found (resource_type) as (
      (select l.resource_type from public.audit_logs l
        where l.account_id = public.current_account_id()
        order by l.resource_type limit 1)
      union all
      select (select l.resource_type from public.audit_logs l
               where l.account_id = public.current_account_id() and l.resource_type > found.resource_type
               order by l.resource_type limit 1)
        from found
       where found.resource_type is not null
    )
    select coalesce(array_agg(found.resource_type), '{}') into v_types
      from found
     where found.resource_type is not null
       and strpos(replace(lower(found.resource_type), '_', ' '), v_search) > 0;
    select coalesce(array_agg(u.id), '{}') into v_users
      from public.users u
     where strpos(lower(concat_ws(' ', u.first_name, u.last_name)), v_search) > 0;
  end if;
  return query execute format($q$
    with page as (
      select l.*, u.email as u_email, u.first_name as u_first_name, u.last_name as u_last_name,
             (case when jsonb_typeof(l.old_values) = 'object' then l.old_values else '{}'::jsonb end)
               || (case when jsonb_typeof(l.new_values) = 'object' then l.new_values else '{}'::jsonb end) as snap
        from public.audit_logs l
        left join public.users u on u.id = l.user_id
       where l.account_id = public.current_account_id()
         and ($1 is null or l.action = $1)
         and ($2 = ''
              or l.action = any($5)
              or l.resource_type = any($6)
              or l.user_id = any($7))
       order by l.created_at desc, l.id desc
       limit least(greatest(coalesce($3, 100), 1), 100)
      -- Deep offsets are slow and no one pages that far by hand: 500 pages.
      offset least(greatest(coalesce($4, 0), 0), 50000)
    )
    select p.id, p.action, p.resource_type, p.resource_id,
           coalesce(
             case p.resource_type %s end,
             -- A deleted record, named from its snapshot (the newer values win).
             case when jsonb_typeof(p.snap -> 'name') = 'string' then nullif(btrim(p.snap ->> 'name'), '') end,
             case p.resource_type %s end,
             nullif(btrim(concat_ws(' ', case when jsonb_typeof(p.snap -> 'first_name') = 'string' then nullif(btrim(p.snap ->> 'first_name'), '') end, case when jsonb_typeof(p.snap -> 'last_name') = 'string' then nullif(btrim(p.snap ->> 'last_name'), '') end)), ''),
             case when jsonb_typeof(p.snap -> 'email') = 'string' then nullif(btrim(p.snap ->> 'email'), '') end,
             case when jsonb_typeof(p.snap -> 'module') = 'string' then nullif(btrim(p.snap ->> 'module'), '') end
           ),
           p.old_values, p.new_values, p.ip_address, p.user_agent, p.created_at,
           p.u_email, p.u_first_name, p.u_last_name,
           coalesce(p.actor_kind, case when p.user_id is not null then 'user' end),
           p.actor_name, p.actor_email
      from page p
     order by p.created_at desc, p.id desc
  $q$,
    -- A CASE needs one WHEN at least: a type no entry has keeps it valid.
    v_current_name || ' when '''' then null',
    v_snapshot_name || ' when '''' then null')
  using v_action, v_search, p_limit, p_offset, v_actions, v_types, v_users;
end;
$function$;
revoke all on function public.list_audit_logs(p_search text, p_action text, p_limit integer, p_offset integer) from public, anon, authenticated, service_role;
grant execute on function public.list_audit_logs(p_search text, p_action text, p_limit integer, p_offset integer) to authenticated, service_role;

create trigger audit_logs_append_only before delete or update on public.audit_logs for each row execute function private.guard_audit_logs();

create policy "admins and auditors read their account's audit logs" on public.audit_logs
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_read_settings() as can_read_settings)));

-- ── private.audit_signing_key ──

-- The one secret the Worker signs the client's address and user agent with (a single row: id is true).
create table private.audit_signing_key (
  id boolean default true not null,
  secret text not null,
  updated_at timestamp with time zone default now() not null,
  constraint audit_signing_key_pkey primary key (id),
  constraint audit_signing_key_id_check check (id),
  constraint audit_signing_key_secret_check check ((length(secret) >= 32))
);
alter table private.audit_signing_key enable row level security;

revoke all on table private.audit_signing_key from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function private.audit_actor(p_account_id uuid, p_resource_type text, p_resource_id uuid, p_new_values jsonb, p_user_id uuid, out kind text, out name text, out email text)
 returns record
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_user public.users;
begin
  select * into v_user from public.users u where u.id = p_user_id;
  if found and v_user.account_id = p_account_id and v_user.role <> 'client' then
    kind := 'user';
    return;
  end if;
  if not found and coalesce(auth.role(), '') not in ('anon', 'authenticated') then
    kind := 'system';
    return;
  end if;
  kind := 'client';
  if found and v_user.account_id = p_account_id then
    -- A client's own account (the client portal): the user is the client.
    name := nullif(btrim(concat_ws(' ', v_user.first_name, v_user.last_name)), '');
    email := v_user.email;
  elsif p_new_values ? 'signer_name' then
    -- Signing names its signer: the person who signed, as they typed it.
    name := p_new_values ->> 'signer_name';
    email := p_new_values ->> 'signer_email';
  elsif p_resource_type = 'quote' then
    select c.name, c.email into name, email
      from public.quotes q join public.contacts c on c.id = q.contact_id
     where q.id = p_resource_id;
  elsif p_resource_type = 'invoice' then
    select i.client_name, i.client_email into name, email from public.invoices i where i.id = p_resource_id;
  end if;
  name := left(nullif(btrim(name), ''), 200);
  email := left(nullif(btrim(email), ''), 320);
end;
$function$;
revoke all on function private.audit_actor(p_account_id uuid, p_resource_type text, p_resource_id uuid, p_new_values jsonb, p_user_id uuid, out kind text, out name text, out email text) from public, anon, authenticated, service_role;

create or replace function private.audit_record_created()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_resource text := tg_argv[0];
begin
  perform private.write_audit(new.account_id, v_resource || '_created', v_resource, new.id,
                              null, to_jsonb(new));
  return null;
end;
$function$;
revoke all on function private.audit_record_created() from public, anon, authenticated, service_role;
grant execute on function private.audit_record_created() to public;

create or replace function private.audit_record_deleted()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_resource text := tg_argv[0];
begin
  -- A delete cascading from the account's own deletion has nowhere to log.
  if exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, v_resource || '_deleted', v_resource, old.id, to_jsonb(old), null);
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_record_deleted() from public, anon, authenticated, service_role;

create or replace function private.audit_record_updated()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_resource text := tg_argv[0];
  v_changes record;
begin
  if v_resource = 'quote' and current_setting('opshub.quote_named_audit', true) = 'on' then
    return null;
  end if;
  select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(new.account_id, v_resource || '_updated', v_resource, new.id,
                                v_changes.old_values, v_changes.new_values);
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_record_updated() from public, anon, authenticated, service_role;
grant execute on function private.audit_record_updated() to public;

create or replace function private.audit_settings_record()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_resource text := tg_argv[0];
  v_old jsonb := case when tg_op <> 'INSERT' then private.redact_secrets(to_jsonb(old)) end;
  v_new jsonb := case when tg_op <> 'DELETE' then private.redact_secrets(to_jsonb(new)) end;
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_resource || '_created', v_resource, new.id, null, v_new);
  elsif tg_op = 'UPDATE' then
    select * into v_changes from private.changed_values(v_old, v_new);
    if v_changes.new_values <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_resource || '_updated', v_resource, new.id,
                                  v_changes.old_values, v_changes.new_values);
    end if;
  -- A delete cascading from the account's own deletion has nowhere to log.
  elsif exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, v_resource || '_deleted', v_resource, old.id, v_old, null);
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_settings_record() from public, anon, authenticated, service_role;
grant execute on function private.audit_settings_record() to public;

create or replace function private.cap_audit_snapshot(p_values jsonb)
 returns jsonb
 language plpgsql
 immutable
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.cap_audit_snapshot(p_values jsonb) from public, anon, authenticated, service_role;

create or replace function private.cap_audit_value(p_value jsonb, p_max_text integer default 1000)
 returns jsonb
 language sql
 immutable
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.cap_audit_value(p_value jsonb, p_max_text integer) from public, anon, authenticated, service_role;

create or replace function private.changed_values(p_old jsonb, p_new jsonb, out old_values jsonb, out new_values jsonb)
 returns record
 language sql
 immutable
 set search_path to ''
as $function$
  select
    coalesce(jsonb_object_agg(o.key, o.value), '{}'::jsonb),
    coalesce(jsonb_object_agg(o.key, p_new -> o.key), '{}'::jsonb)
  from jsonb_each(p_old) o
  where o.key not in ('updated_at')
    and (p_new -> o.key) is distinct from o.value
$function$;
revoke all on function private.changed_values(p_old jsonb, p_new jsonb, out old_values jsonb, out new_values jsonb) from public, anon, authenticated, service_role;
grant execute on function private.changed_values(p_old jsonb, p_new jsonb, out old_values jsonb, out new_values jsonb) to public;

create or replace function private.redact_secrets(p_values jsonb)
 returns jsonb
 language sql
 immutable
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.redact_secrets(p_values jsonb) from public, anon, authenticated, service_role;

create or replace function private.write_audit(p_account_id uuid, p_action text, p_resource_type text, p_resource_id uuid, p_old_values jsonb, p_new_values jsonb, p_user_id uuid default null::uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_client record;
  v_user uuid := coalesce(p_user_id, private.acting_user_id());
  v_actor record;
begin
  select * into v_client from private.request_client();
  select * into v_actor from private.audit_actor(p_account_id, p_resource_type, p_resource_id, p_new_values, v_user);
  insert into public.audit_logs (account_id, user_id, action, resource_type, resource_id, old_values, new_values,
                                 ip_address, user_agent, actor_kind, actor_name, actor_email)
  values (
    p_account_id,
    v_user,
    p_action,
    p_resource_type,
    p_resource_id,
    private.cap_audit_snapshot(p_old_values),
    private.cap_audit_snapshot(p_new_values),
    v_client.ip_address,
    v_client.user_agent,
    v_actor.kind,
    v_actor.name,
    v_actor.email
  );
end;
$function$;
revoke all on function private.write_audit(p_account_id uuid, p_action text, p_resource_type text, p_resource_id uuid, p_old_values jsonb, p_new_values jsonb, p_user_id uuid) from public, anon, authenticated, service_role;

create or replace function public.audit_record_naming()
 returns table(type text, table_name text, name_sql text, snapshot_key text)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select t.type, t.table_name::text, t.name_sql, t.snapshot_key
    from private.record_types t
   where public.can_read_settings()
   order by t.type
$function$;
revoke all on function public.audit_record_naming() from public, anon, authenticated, service_role;
grant execute on function public.audit_record_naming() to authenticated, service_role;

create or replace function public.record_history(p_resource_type text, p_resource_id uuid)
 returns table(id uuid, action text, created_at timestamp with time zone, actor_name text, actor_kind text, actor_email text, old_values jsonb, new_values jsonb)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select a.id, a.action, a.created_at,
         case k.kind
           when 'system' then 'System'
           when 'client' then coalesce(a.actor_name, a.new_values ->> 'signer_name', contact.name)
           else coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email)
         end,
         k.kind,
         case when k.kind = 'client' then coalesce(a.actor_email, a.new_values ->> 'signer_email', contact.email) end,
         a.old_values, a.new_values
    from public.audit_logs a
    left join public.users u on u.id = a.user_id
    cross join lateral (
      select coalesce(a.actor_kind,
                      case when a.user_id is not null then 'user'
                           when a.action in ('quote_viewed', 'quote_signed', 'quote_declined') then 'client'
                           when a.action in ('quote_expired', 'invoice_overdue', 'document_extracted',
                                             'document_extraction_failed', 'document_needs_text') then 'system'
                      end) as kind
    ) k
    left join lateral (
      select c.name, c.email
        from public.quotes q join public.contacts c on c.id = q.contact_id
       where k.kind = 'client' and a.actor_kind is null and a.resource_type = 'quote' and q.id = a.resource_id
    ) contact on true
   where a.account_id = public.current_account_id()
     and public.is_account_staff()
     and exists (select 1 from private.record_types t where t.type = p_resource_type and t.has_history)
     and a.resource_type = p_resource_type
     and a.resource_id = p_resource_id
   order by a.created_at desc, a.id desc
   limit 100
$function$;
revoke all on function public.record_history(p_resource_type text, p_resource_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.record_history(p_resource_type text, p_resource_id uuid) to authenticated, service_role;
