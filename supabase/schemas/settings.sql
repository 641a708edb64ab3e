-- Templates, integrations and their write-only secrets: what an account sets up once.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.templates ──

-- An account's reusable texts (e-mail and document templates).
create table public.templates (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  name text not null,
  type text default 'email'::text not null,
  subject text,
  content text not null,
  variables jsonb,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint templates_pkey primary key (id),
  constraint templates_check check (((type = 'email'::text) or (subject is null))),
  constraint templates_name_check check ((length(btrim(name)) > 0)),
  constraint templates_name_no_control_chars check ((name !~ '[\x01-\x1f\x7f]'::text)),
  constraint templates_subject_no_control_chars check ((subject !~ '[\x01-\x1f\x7f]'::text)),
  constraint templates_type_check check ((type = any (array['email'::text, 'quote'::text, 'invoice'::text, 'contract'::text]))),
  constraint templates_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint templates_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.templates enable row level security;

create index templates_account_id_created_at_id_idx on public.templates using btree (account_id, created_at, id);
create index templates_account_id_created_at_idx on public.templates using btree (account_id, created_at desc);
create index templates_account_id_name_id_idx on public.templates using btree (account_id, name, id);
create index templates_created_by_idx on public.templates using btree (created_by);

revoke all on table public.templates from public, anon, authenticated, service_role;
grant all on table public.templates to authenticated;
revoke truncate on table public.templates from authenticated;
grant all on table public.templates to service_role;

create trigger templates_audit after insert or delete or update on public.templates for each row execute function private.audit_settings_record('template');
create trigger templates_default_created_by before insert on public.templates for each row execute function private.default_created_by();
create trigger templates_set_updated_at before update on public.templates for each row execute function private.set_updated_at();

create policy "admins add templates" on public.templates
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

create policy "admins and auditors read templates" on public.templates
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_read_settings() as can_read_settings)));

create policy "admins delete templates" on public.templates
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

create policy "admins update templates" on public.templates
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

-- ── public.integrations ──

-- An account's outside services (mail, payment, CRM, storage). Secrets never live
-- here: secrets_set only says which are set (decision 014).
create table public.integrations (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  name text not null,
  type text not null,
  config jsonb default '{}'::jsonb not null,
  is_active boolean default true not null,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  secrets_set jsonb default '{}'::jsonb not null,
  is_default_mail_route boolean default false not null,
  constraint integrations_pkey primary key (id),
  constraint integrations_config_check check ((jsonb_typeof(config) = 'object'::text)),
  constraint integrations_from_email_no_control_chars check ((coalesce((config ->> 'from_email'::text), ''::text) !~ '[\x01-\x1f\x7f]'::text)),
  constraint integrations_mail_route_is_email check (((not is_default_mail_route) or (type = 'email'::text))),
  constraint integrations_name_check check ((length(btrim(name)) > 0)),
  constraint integrations_name_no_control_chars check ((name !~ '[\x01-\x1f\x7f]'::text)),
  constraint integrations_secrets_set_check check ((jsonb_typeof(secrets_set) = 'object'::text)),
  constraint integrations_type_check check ((type = any (array['email'::text, 'payment'::text, 'crm'::text, 'storage'::text, 'sms'::text, 'ai'::text]))),
  constraint integrations_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint integrations_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.integrations enable row level security;

create index integrations_account_id_created_at_idx on public.integrations using btree (account_id, created_at desc);
create index integrations_created_by_idx on public.integrations using btree (created_by);
create unique index integrations_one_mail_route_per_account on public.integrations using btree (account_id) where is_default_mail_route;

revoke all on table public.integrations from public, anon, authenticated, service_role;
grant all on table public.integrations to authenticated;
revoke insert, truncate, update on table public.integrations from authenticated;
grant all on table public.integrations to service_role;
grant insert (id, account_id, name, type, config, is_active, created_by) on table public.integrations to authenticated;
grant update (name, type, config, is_active, updated_at) on table public.integrations to authenticated;

create or replace function private.integration_route_follows_type()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.type <> 'email' then
    new.is_default_mail_route := false;
  end if;
  return new;
end;
$function$;
revoke all on function private.integration_route_follows_type() from public, anon, authenticated, service_role;

create or replace function private.keep_integration_secrets_apart()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.keep_integration_secrets_apart() from public, anon, authenticated, service_role;

create or replace function private.split_integration_config(p_config jsonb, p_stored jsonb, out config jsonb, out secrets jsonb)
 returns record
 language plpgsql
 immutable
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.split_integration_config(p_config jsonb, p_stored jsonb, out config jsonb, out secrets jsonb) from public, anon, authenticated, service_role;

create or replace function public.integration_credentials(p_integration_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.jsonb_deep_merge(i.config, coalesce(s.secrets, '{}'::jsonb))
    from public.integrations i
    left join private.integration_secrets s on s.integration_id = i.id
   where i.id = p_integration_id
$function$;
revoke all on function public.integration_credentials(p_integration_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.integration_credentials(p_integration_id uuid) to service_role;

create trigger integrations_audit after insert or delete or update on public.integrations for each row execute function private.audit_settings_record('integration');
create trigger integrations_default_created_by before insert on public.integrations for each row execute function private.default_created_by();
create trigger integrations_keep_secrets_apart before insert or update on public.integrations for each row execute function private.keep_integration_secrets_apart();
create trigger integrations_route_follows_type before insert or update of type on public.integrations for each row execute function private.integration_route_follows_type();
create trigger integrations_set_updated_at before update on public.integrations for each row execute function private.set_updated_at();

create policy "admins add integrations" on public.integrations
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

create policy "admins and auditors read integrations" on public.integrations
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_read_settings() as can_read_settings)));

create policy "admins delete integrations" on public.integrations
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

create policy "admins update integrations" on public.integrations
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

-- ── private.integration_secrets ──

-- The write-only half of an integration: passwords and keys, read only by the
-- service (public.integration_credentials).
create table private.integration_secrets (
  integration_id uuid not null,
  secrets jsonb default '{}'::jsonb not null,
  updated_at timestamp with time zone default now() not null,
  constraint integration_secrets_pkey primary key (integration_id),
  constraint integration_secrets_secrets_check check ((jsonb_typeof(secrets) = 'object'::text)),
  constraint integration_secrets_integration_id_fkey foreign key (integration_id) references public.integrations(id) on delete cascade deferrable initially deferred
);
alter table private.integration_secrets enable row level security;

revoke all on table private.integration_secrets from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function private.holds_secret(p_value jsonb)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select case jsonb_typeof(p_value)
    when 'object' then exists (
      select 1 from jsonb_each(p_value) e
       where (private.is_secret_key(e.key) and e.value not in ('null'::jsonb, '""'::jsonb))
          or private.holds_secret(e.value))
    when 'array' then exists (select 1 from jsonb_array_elements(p_value) a where private.holds_secret(a.value))
    else false
  end
$function$;
revoke all on function private.holds_secret(p_value jsonb) from public, anon, authenticated, service_role;

create or replace function private.is_secret_key(p_key text)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select coalesce(
    lower(regexp_replace(regexp_replace(p_key, '([a-z0-9])([A-Z])', '\1_\2', 'g'), '[^a-zA-Z0-9]+', '_', 'g'))
      ~ '(^|_)(pass|passwd|password|passphrase|pwd|secret|token|authorization|credential|credentials|apikey|api_key|accesskey|access_key|privatekey|private_key|signingkey|signing_key)(_|$)',
    false)
$function$;
revoke all on function private.is_secret_key(p_key text) from public, anon, authenticated, service_role;

create or replace function private.secrets_shape(p_secrets jsonb)
 returns jsonb
 language sql
 immutable
 set search_path to ''
as $function$
  select coalesce(jsonb_object_agg(e.key,
           case when private.is_secret_key(e.key) then 'true'::jsonb else private.secrets_shape(e.value) end),
         '{}'::jsonb)
    from jsonb_each(p_secrets) e
$function$;
revoke all on function private.secrets_shape(p_secrets jsonb) from public, anon, authenticated, service_role;

create or replace function public.get_public_site_info()
 returns table(name text, contact_email text, description text)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select a.name, a.billing_email, a.description
  from public.accounts a
  order by a.created_at, a.id
  limit 1
$function$;
revoke all on function public.get_public_site_info() from public, anon, authenticated, service_role;
grant execute on function public.get_public_site_info() to anon, authenticated, service_role;

create or replace function public.mail_route_status()
 returns jsonb
 language sql
 stable
 set search_path to ''
as $function$
  select jsonb_build_object(
    'id', i.id,
    'name', i.name,
    'last_test', (
      select jsonb_build_object('status', j.status, 'last_error', j.last_error, 'created_at', j.created_at)
        from public.jobs j
       where j.subject_id = i.id and j.kind = 'mail.test'
       order by j.created_at desc
       limit 1))
    from public.integrations i
   where i.type = 'email' and i.is_active and i.is_default_mail_route
   limit 1
$function$;
revoke all on function public.mail_route_status() from public, anon, authenticated, service_role;
grant execute on function public.mail_route_status() to authenticated, service_role;

create or replace function public.request_test_mail(p_integration_id uuid)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_email text;
begin
  if not coalesce(public.is_account_admin(), false) then
    raise exception 'Only an admin can send a test mail' using errcode = '42501';
  end if;
  if not exists (select 1 from public.integrations i
                  where i.id = p_integration_id and i.account_id = v_account_id and i.type = 'email' and i.is_active) then
    raise exception 'Not an active email integration of this account' using errcode = 'P0002';
  end if;
  if not private.hit_rate_limit('test_mail:account:' || v_account_id, 5, interval '1 hour') then
    raise exception 'At most 5 test mails an hour: try again later' using errcode = '54000';
  end if;
  select u.email into v_email from public.users u where u.auth_user_id = auth.uid();
  perform private.write_audit(v_account_id, 'test_mail_requested', 'integration', p_integration_id,
    null, jsonb_build_object('to', v_email));
  return private.enqueue_job('mail.test', v_account_id,
    jsonb_build_object('integration_id', p_integration_id, 'to', v_email),
    'mail.test:' || gen_random_uuid(), p_integration_id, now(), 1);
end;
$function$;
revoke all on function public.request_test_mail(p_integration_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.request_test_mail(p_integration_id uuid) to authenticated, service_role;

create or replace function public.set_mail_route(p_integration_id uuid default null::uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_before uuid;
begin
  if not coalesce(public.is_account_admin(), false) then
    raise exception 'Only an admin can choose the mail route' using errcode = '42501';
  end if;
  if p_integration_id is not null and not exists (
    select 1 from public.integrations i
     where i.id = p_integration_id and i.account_id = v_account_id and i.type = 'email' and i.is_active) then
    raise exception 'Not an active email integration of this account' using errcode = 'P0002';
  end if;
  select i.id into v_before from public.integrations i
   where i.account_id = v_account_id and i.is_default_mail_route;
  if v_before is not distinct from p_integration_id then
    return;
  end if;
  -- Two statements: the one-route index is checked row by row.
  update public.integrations set is_default_mail_route = false
   where account_id = v_account_id and is_default_mail_route;
  if p_integration_id is not null then
    update public.integrations set is_default_mail_route = true where id = p_integration_id;
  end if;
  perform private.write_audit(v_account_id, 'mail_route_changed', 'integration', p_integration_id,
    jsonb_build_object('integration_id', v_before), jsonb_build_object('integration_id', p_integration_id));
end;
$function$;
revoke all on function public.set_mail_route(p_integration_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.set_mail_route(p_integration_id uuid) to authenticated, service_role;

create or replace function public.update_website_settings(p_company_name text, p_contact_email text, p_description text, p_timezone text, p_default_currency text)
 returns public.accounts
 language plpgsql
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_account public.accounts;
begin
  if not public.is_account_admin() then
    raise exception 'Only administrators can manage website settings' using errcode = '42501';
  end if;
  if not public.is_master_account(v_account_id) then
    raise exception 'Only the master account admin can update website settings' using errcode = '42501';
  end if;
  if p_company_name is null or length(btrim(p_company_name)) = 0 then
    raise exception 'Company name is required' using errcode = '22023';
  end if;
  if p_contact_email is null or p_contact_email !~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$' then
    raise exception 'Contact email must be a valid email address' using errcode = '22023';
  end if;
  if p_timezone not in ('UTC', 'America/New_York', 'America/Los_Angeles', 'Europe/London', 'Europe/Paris',
                        'Asia/Tokyo', 'Asia/Dubai', 'Australia/Sydney') then
    raise exception 'Unsupported timezone' using errcode = '22023';
  end if;

  update public.accounts a
     set name = btrim(p_company_name),
         billing_email = lower(btrim(p_contact_email)),
         description = nullif(btrim(p_description), ''),
         timezone = p_timezone,
         default_currency = p_default_currency,
         updated_at = now()
   where a.id = v_account_id
  returning * into v_account;

  if not found then
    raise exception 'Only the master account admin can update website settings' using errcode = '42501';
  end if;
  return v_account;
end;
$function$;
revoke all on function public.update_website_settings(p_company_name text, p_contact_email text, p_description text, p_timezone text, p_default_currency text) from public, anon, authenticated, service_role;
grant execute on function public.update_website_settings(p_company_name text, p_contact_email text, p_description text, p_timezone text, p_default_currency text) to authenticated, service_role;

create policy "branding: admins add" on storage.objects
  for insert
  to authenticated
  with check (((bucket_id = 'branding'::text) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.is_account_admin() as is_account_admin)));

create policy "branding: admins change" on storage.objects
  for update
  to authenticated
  using (((bucket_id = 'branding'::text) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.is_account_admin() as is_account_admin)))
  with check (((bucket_id = 'branding'::text) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.is_account_admin() as is_account_admin)));

create policy "branding: admins remove" on storage.objects
  for delete
  to authenticated
  using (((bucket_id = 'branding'::text) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.is_account_admin() as is_account_admin)));

create policy "branding: staff read" on storage.objects
  for select
  to authenticated
  using (((bucket_id = 'branding'::text) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.is_account_staff() as is_account_staff)));
